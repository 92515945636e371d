package dev.cairn.example.hibernate;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import java.time.LocalDate;
import org.hibernate.annotations.Cache;
import org.hibernate.annotations.CacheConcurrencyStrategy;

/** A pet of an {@link Owner}, of a {@link PetType}. */
@Entity
@Cacheable
@Cache(usage = CacheConcurrencyStrategy.READ_WRITE)
public class Pet {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  private String name;
  private LocalDate birthDate;

  @ManyToOne(fetch = FetchType.LAZY)
  private Owner owner;

  @ManyToOne(fetch = FetchType.LAZY)
  private PetType type;

  protected Pet() {}

  public Pet(String name, LocalDate birthDate, PetType type) {
    this.name = name;
    this.birthDate = birthDate;
    this.type = type;
  }

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }

  public LocalDate getBirthDate() {
    return birthDate;
  }

  public Owner getOwner() {
    return owner;
  }

  void setOwner(Owner owner) {
    this.owner = owner;
  }

  public PetType getType() {
    return type;
  }
}
