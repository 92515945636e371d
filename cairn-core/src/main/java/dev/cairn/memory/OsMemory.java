package dev.cairn.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * Memory mapped straight from the OS ({@code mmap} of anonymous pages), where Cairn may call native
 * code: on Linux, with native access enabled for Cairn's module ({@code --enable-native-access}).
 * Elsewhere {@link #available()} is false and callers use {@link Arena#allocate}.
 *
 * {@snippet :
 * Arena arena = Arena.ofShared();
 * MemorySegment memory = OsMemory.available()
 *     ? OsMemory.mapAnonymous(64 << 20, arena)   // pages arrive zeroed, on first touch
 *     : arena.allocate(64 << 20, 4096);          // zeroed now, every page touched
 * arena.close();                                 // unmaps (or frees) it
 * }
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Why not Arena.allocate: it zeroes all it allocates (a memset) before returning. For a
 * 64 MiB segment that is 45-96 ms on the 2-core test VM, spent under the lock of the stripe
 * that asked for it, and 64 MiB of resident memory at once, used or not. Anonymous pages from
 * mmap are zero by definition; the kernel hands each one out on its first touch, so a segment
 * costs resident memory as it fills, and nothing up front.
 *
 * Safety: the segment returned is bounds-checked against exactly the size mapped and belongs to
 * the caller's arena, whose close runs munmap once; an access after that throws
 * IllegalStateException like any closed segment. Nothing else of the mapping escapes.
 *
 * Huge pages (PileOptions.hugePages): the mapping is made 2 MiB larger, the unaligned head and
 * the tail are unmapped again, and the rest is advised MADV_HUGEPAGE, so that each 2 MiB of it
 * can be one transparent huge page. Advice only: a kernel that refuses it leaves small pages.
 *
 * Giving pages back (releasePages): MADV_DONTNEED on whole pages of the OS's page size
 * (getpagesize, 4 KiB or 64 KiB), never a partial page: the kernel rounds a length up to a
 * page, which would clear bytes past the range. A private anonymous page so advised reads as
 * zeros at its next touch. A racing reader of the range sees old bytes or zeros, never a fault.
 * In a mapping advised for huge pages, only whole 2 MiB pages: advising part of a huge page
 * makes the kernel split it into small pages for good (the split is not undone), so a pile
 * that frees now and then would lose most of its huge pages (seen: a third of a 10M-entry
 * cache's memory left in huge pages after its load, against four fifths with this rule).
 *
 * Constants: PROT_READ|PROT_WRITE = 3, MAP_PRIVATE|MAP_ANONYMOUS = 0x22, MADV_DONTNEED = 4 and
 * MADV_HUGEPAGE = 14 are those of Linux on x86-64 and AArch64 (the generic ABI); other systems
 * are not attempted.
 * }</pre>
 */
public final class OsMemory {
  /**
   * System property: {@code -Dcairn.osMemory=false} makes {@link #available()} false, so that
   * benchmarks can compare both kinds of memory in one build.
   */
  public static final String DISABLE_PROPERTY = "cairn.osMemory";

  /** The size of a transparent huge page on x86-64 and AArch64 with 4 KiB pages: 2 MiB. */
  public static final long HUGE_PAGE_BYTES = 2L << 20;

  private static final int PROT_READ_WRITE = 0x1 | 0x2;
  private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
  private static final long MAP_FAILED = -1L;
  private static final int MADV_HUGEPAGE = 14;
  private static final int MADV_DONTNEED = 4;

  private static final MethodHandle MMAP;
  private static final MethodHandle MUNMAP;
  private static final MethodHandle MADVISE;
  private static final long PAGE_BYTES;
  private static final String UNAVAILABLE_BECAUSE;

  static {
    MethodHandle mmap = null;
    MethodHandle munmap = null;
    MethodHandle madvise = null;
    long pageBytes = 0;
    String why = NativeCalls.unavailableBecause();
    if (!Boolean.parseBoolean(System.getProperty(DISABLE_PROPERTY, "true"))) {
      why = "turned off by -D" + DISABLE_PROPERTY + "=false";
    } else if (why == null) {
      try {
        mmap =
            NativeCalls.bindWithErrno(
                "mmap",
                FunctionDescriptor.of(
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG));
        munmap =
            NativeCalls.bind(
                "munmap",
                FunctionDescriptor.of(
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        madvise =
            NativeCalls.bind(
                "madvise",
                FunctionDescriptor.of(
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT));
        MethodHandle getpagesize =
            NativeCalls.bind("getpagesize", FunctionDescriptor.of(ValueLayout.JAVA_INT));
        pageBytes = (int) getpagesize.invokeExact();
      } catch (Throwable e) {
        why = "mmap could not be bound: " + e;
        mmap = null;
        munmap = null;
        madvise = null;
      }
    }
    PAGE_BYTES = pageBytes;
    MMAP = mmap;
    MUNMAP = munmap;
    MADVISE = madvise;
    UNAVAILABLE_BECAUSE = why;
  }

  private OsMemory() {}

  /** Whether {@link #mapAnonymous} can be used here. */
  public static boolean available() {
    return MMAP != null;
  }

  /**
   * The OS's page size in bytes ({@code getpagesize}), the unit of {@link #releasePages}; 0 if
   * {@link #available()} is false.
   */
  public static long pageBytes() {
    return PAGE_BYTES;
  }

  /** Why {@link #available()} is false, or null if it is true; for diagnostics. */
  public static String unavailableBecause() {
    return UNAVAILABLE_BECAUSE;
  }

  /**
   * Maps {@code sizeBytes} of private anonymous memory, page-aligned and reading as zeros, into
   * {@code arena}: closing the arena unmaps it.
   *
   * @throws IllegalStateException if {@link #available()} is false
   * @throws OutOfMemoryError if the OS refuses the mapping
   */
  public static MemorySegment mapAnonymous(long sizeBytes, Arena arena) {
    return mapAnonymous(sizeBytes, arena, false);
  }

  /**
   * {@link #mapAnonymous(long, Arena)}; if {@code hugePages}, the mapping starts on a 2 MiB
   * boundary and is advised {@code MADV_HUGEPAGE}, so that the kernel may back it with transparent
   * huge pages. The advice is best effort: a kernel with them turned off refuses it and the memory
   * stays in small pages.
   */
  public static MemorySegment mapAnonymous(long sizeBytes, Arena arena, boolean hugePages) {
    if (!available()) {
      throw new IllegalStateException("OS memory is not available: " + UNAVAILABLE_BECAUSE);
    }
    if (sizeBytes <= 0) {
      throw new IllegalArgumentException("sizeBytes must be positive: " + sizeBytes);
    }
    long address;
    if (hugePages) {
      // over-map by one huge page, then give back the unaligned head and the tail, so that every
      // 2 MiB of the segment can be one huge page
      long mapped = map(sizeBytes + HUGE_PAGE_BYTES);
      address = (mapped + HUGE_PAGE_BYTES - 1) & -HUGE_PAGE_BYTES;
      long head = address - mapped;
      long tail = HUGE_PAGE_BYTES - head;
      if (head > 0) {
        unmap(mapped, head);
      }
      if (tail > 0) {
        unmap(address + sizeBytes, tail);
      }
      advise(address, sizeBytes, MADV_HUGEPAGE);
    } else {
      address = map(sizeBytes);
    }
    long start = address;
    // reinterpret is restricted, and meant here: the mapping is sizeBytes long from address, and
    // the arena's close unmaps it (callers check available(), which needs native access)
    @SuppressWarnings("restricted")
    MemorySegment mapping =
        MemorySegment.ofAddress(address)
            .reinterpret(sizeBytes, arena, ignored -> unmap(start, sizeBytes));
    return mapping;
  }

  /**
   * Gives the pages lying wholly inside {@code [offset, offset + length)} of {@code memory} back to
   * the OS ({@code madvise(MADV_DONTNEED)}): they stay mapped, read as zeros from now on, and are
   * resident again only once written. The bytes of the range around those pages are untouched.
   *
   * <p>{@code memory} must come from {@link #mapAnonymous}: a private file mapping would read as
   * its file again, not as zeros.
   *
   * @return the bytes given back, a whole number of pages (0 if the range holds no whole page)
   * @throws IllegalStateException if {@link #available()} is false
   * @throws IndexOutOfBoundsException if the range is not inside {@code memory}
   */
  public static long releasePages(MemorySegment memory, long offset, long length) {
    return releasePages(memory, offset, length, false);
  }

  /**
   * {@link #releasePages(MemorySegment, long, long)}; if {@code hugePages} (for memory mapped with
   * them, {@link #mapAnonymous(long, Arena, boolean)}), only the whole 2 MiB pages ({@link
   * #HUGE_PAGE_BYTES}) inside the range: giving back part of a huge page would make the kernel
   * split it into small pages.
   *
   * @return the bytes given back, a whole number of pages (0 if the range holds no whole page)
   * @throws IllegalStateException if {@link #available()} is false
   * @throws IndexOutOfBoundsException if the range is not inside {@code memory}
   */
  public static long releasePages(
      MemorySegment memory, long offset, long length, boolean hugePages) {
    if (!available()) {
      throw new IllegalStateException("OS memory is not available: " + UNAVAILABLE_BECAUSE);
    }
    Objects.checkFromIndexSize(offset, length, memory.byteSize());
    long address = memory.address();
    long page = hugePages ? Math.max(HUGE_PAGE_BYTES, PAGE_BYTES) : PAGE_BYTES;
    long from = (address + offset + page - 1) & -page;
    long to = (address + offset + length) & -page;
    if (to <= from) {
      return 0;
    }
    advise(from, to - from, MADV_DONTNEED);
    return to - from;
  }

  private static long map(long sizeBytes) {
    long address;
    int errno;
    try (Arena call = Arena.ofConfined()) {
      MemorySegment state = NativeCalls.callState(call);
      address =
          (long)
              MMAP.invokeExact(
                  state, 0L, sizeBytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
      errno = NativeCalls.errno(state);
    } catch (Throwable t) {
      throw new IllegalStateException("mmap call failed", t);
    }
    if (address == MAP_FAILED || address == 0) {
      throw new OutOfMemoryError(
          "mmap of " + sizeBytes + " bytes of anonymous memory failed: errno " + errno);
    }
    return address;
  }

  private static void advise(long address, long sizeBytes, int advice) {
    try {
      int ignored = (int) MADVISE.invokeExact(address, sizeBytes, advice);
    } catch (Throwable t) {
      // advice only: the memory is usable either way
    }
  }

  private static void unmap(long address, long sizeBytes) {
    try {
      // a failure (EINVAL for a range not mapped) would be a bug here; there is nothing to do
      // about it in a cleanup action, which must not throw: at worst the mapping stays until
      // the process exits
      int ignored = (int) MUNMAP.invokeExact(address, sizeBytes);
    } catch (Throwable t) {
      // as above
    }
  }
}
