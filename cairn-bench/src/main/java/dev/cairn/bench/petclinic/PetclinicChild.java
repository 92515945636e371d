package dev.cairn.bench.petclinic;

import dev.cairn.bench.harness.ChildArguments;
import dev.cairn.example.hibernate.Clinic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * One configuration's run of the PetClinic workload, in a JVM of its own (started by {@link
 * PetclinicBench}): load the owners, run the mix unmeasured for a while (JIT, caches), then
 * measured, and print each figure as a line {@code RESULT name value}.
 *
 * <p>The mix, per operation: 70% an owner's page (owner and pets by id), 20% a search by last name,
 * 5% a new visit, 5% an owner's new city: 90% reads, 10% writes. Ids and names are uniform.
 *
 * <p>Arguments: {@code name=value} pairs: config, owners, lastNames, threads, seconds, warmup, dir,
 * seed.
 */
public final class PetclinicChild {
  private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);

  private PetclinicChild() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = ChildArguments.parse(args);
    PetclinicConfig config = PetclinicConfig.of(a.get("config"));
    int owners = Integer.parseInt(a.get("owners"));
    int lastNames = Integer.parseInt(a.get("lastNames"));
    int threads = Integer.parseInt(a.get("threads"));
    double seconds = Double.parseDouble(a.get("seconds"));
    double warmup = Double.parseDouble(a.get("warmup"));
    Path dir = Files.createDirectories(Path.of(a.get("dir")).resolve(config.label()));
    long seed = Long.parseLong(a.get("seed"));

    try (Clinics clinics = open(config, dir)) {
      long start = System.nanoTime();
      clinics.load(owners, lastNames);
      result("loadSeconds", (System.nanoTime() - start) / 1e9);
      run(clinics, owners, lastNames, threads, warmup, seed, null, null);
      Histogram reads = new Histogram(HIGHEST_NANOS, 3);
      Histogram writes = new Histogram(HIGHEST_NANOS, 3);
      double elapsed = run(clinics, owners, lastNames, threads, seconds, seed + 1, reads, writes);
      long ops = reads.getTotalCount() + writes.getTotalCount();
      result("opsPerSec", ops / elapsed);
      result("readOpsPerSec", reads.getTotalCount() / elapsed);
      percentiles("read", reads);
      percentiles("write", writes);
      Histogram all = reads.copy();
      all.add(writes);
      percentiles("op", all);
    }
  }

  private static Clinics open(PetclinicConfig config, Path dir) {
    Path db = dir.resolve("db");
    return switch (config) {
      case HIBERNATE -> new HibernateClinics(db, Clinic.noCache());
      case HIBERNATE_EHCACHE ->
          new HibernateClinics(
              db, Clinic.jcache("org.ehcache.jsr107.EhcacheCachingProvider", null));
      case HIBERNATE_CAIRN ->
          new HibernateClinics(db, Clinic.jcache("dev.cairn.jcache.CairnCachingProvider", null));
      case CAIRN_DIRECT -> new CairnClinics(dir.resolve("cache"));
    };
  }

  /**
   * Runs the mix on {@code threads} threads for {@code seconds}; records each operation's latency
   * in {@code reads} or {@code writes} if given. Returns the seconds it ran.
   */
  private static double run(
      Clinics clinics,
      int owners,
      int lastNames,
      int threads,
      double seconds,
      long seed,
      Histogram reads,
      Histogram writes)
      throws InterruptedException {
    long nanos = (long) (seconds * 1e9);
    List<Histogram[]> perThread = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    for (int t = 0; t < threads; t++) {
      Histogram[] mine = {new Histogram(HIGHEST_NANOS, 3), new Histogram(HIGHEST_NANOS, 3)};
      perThread.add(mine);
      SplittableRandom random = new SplittableRandom(seed * 31 + t);
      Thread worker =
          new Thread(
              () -> {
                try {
                  go.await();
                  long end = System.nanoTime() + nanos;
                  long now;
                  while ((now = System.nanoTime()) < end) {
                    int dice = random.nextInt(100);
                    long owner = 1L + random.nextInt(owners);
                    if (dice < 70) {
                      clinics.ownerWithPets(owner);
                    } else if (dice < 90) {
                      clinics.ownersByLastName(Clinics.lastName(owner, lastNames));
                    } else if (dice < 95) {
                      clinics.addVisit(owner, "checkup");
                    } else {
                      clinics.updateCity(owner, "City" + random.nextInt(100));
                    }
                    mine[dice < 90 ? 0 : 1].recordValue(
                        Math.min(System.nanoTime() - now, HIGHEST_NANOS));
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "petclinic-" + t);
      workers.add(worker);
      worker.start();
    }
    long start = System.nanoTime();
    go.countDown();
    for (Thread w : workers) {
      w.join();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    if (!failures.isEmpty()) {
      throw new IllegalStateException(
          "a worker failed: " + failures.getFirst(), failures.getFirst());
    }
    if (reads != null) {
      for (Histogram[] h : perThread) {
        reads.add(h[0]);
        writes.add(h[1]);
      }
    }
    return elapsed;
  }

  private static void percentiles(String prefix, Histogram h) {
    result(prefix + "P50Micros", h.getValueAtPercentile(50) / 1e3);
    result(prefix + "P99Micros", h.getValueAtPercentile(99) / 1e3);
    result(prefix + "P999Micros", h.getValueAtPercentile(99.9) / 1e3);
    result(prefix + "P9999Micros", h.getValueAtPercentile(99.99) / 1e3);
  }

  private static void result(String name, double value) {
    System.out.println("RESULT " + name + " " + value);
  }
}
