package dev.cairn.codec;

import java.time.LocalDate;
import java.util.Objects;

/** The seed's Person as a mutable POJO with a no-argument constructor and private fields. */
public final class PersonBean {
  private String name;
  private String surname;
  private String email;
  private int age;
  private double salary;
  private long id;
  private LocalDate birthDate;

  public PersonBean() {}

  public PersonBean(Person p) {
    this.name = p.name();
    this.surname = p.surname();
    this.email = p.email();
    this.age = p.age();
    this.salary = p.salary();
    this.id = p.id();
    this.birthDate = p.birthDate();
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public long getId() {
    return id;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PersonBean p
        && Objects.equals(name, p.name)
        && Objects.equals(surname, p.surname)
        && Objects.equals(email, p.email)
        && age == p.age
        && Double.compare(salary, p.salary) == 0
        && id == p.id
        && Objects.equals(birthDate, p.birthDate);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, surname, email, age, salary, id, birthDate);
  }

  @Override
  public String toString() {
    return "PersonBean["
        + name
        + " "
        + surname
        + " "
        + email
        + " "
        + age
        + " "
        + salary
        + " "
        + id
        + " "
        + birthDate
        + "]";
  }
}
