package dev.cairn.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;
import java.util.NoSuchElementException;

/**
 * The few libc functions Cairn calls through FFM, bound here once: whether it may (Linux, with
 * native access enabled for Cairn's module), and {@code errno} captured by the call itself (the
 * JVM's own calls in between could change the thread's). For {@link OsMemory} ({@code mmap}) and
 * the file layer ({@code fallocate}).
 *
 * {@snippet :
 * MethodHandle close = NativeCalls.bind("close",
 *     FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
 * MethodHandle open = NativeCalls.bindWithErrno("open",
 *     FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
 *     Linker.Option.firstVariadicArg(2));
 * try (Arena arena = Arena.ofConfined()) {
 *   MemorySegment state = NativeCalls.callState(arena);
 *   int fd = (int) open.invokeExact(state, arena.allocateFrom("/tmp/f"), 1);
 *   if (fd < 0) throw new IOException("errno " + NativeCalls.errno(state));
 * }
 * }
 */
public final class NativeCalls {
  private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO =
      CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

  private NativeCalls() {}

  /**
   * Null if Cairn may bind libc functions here, else why not: not Linux (the constants callers pass
   * are Linux's), or native access not enabled for Cairn's module.
   */
  public static String unavailableBecause() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.startsWith("linux")) {
      return "not Linux (" + os + ")";
    }
    if (!NativeCalls.class.getModule().isNativeAccessEnabled()) {
      return "native access is not enabled (--enable-native-access)";
    }
    return null;
  }

  /**
   * A downcall handle to libc's {@code name}.
   *
   * @throws java.util.NoSuchElementException if libc has no such symbol
   */
  // downcallHandle is restricted, and binding libc is this class's purpose; callers check
  // unavailableBecause() first, which needs native access
  @SuppressWarnings("restricted")
  public static MethodHandle bind(
      String name, FunctionDescriptor descriptor, Linker.Option... options) {
    Linker linker = Linker.nativeLinker();
    MemorySegment function =
        linker
            .defaultLookup()
            .find(name)
            .orElseThrow(() -> new NoSuchElementException("the C library has no function " + name));
    return linker.downcallHandle(function, descriptor, options);
  }

  /**
   * {@link #bind}, with {@code errno} captured: the handle takes a {@link #callState} segment as
   * its first argument, before those of {@code descriptor}.
   */
  public static MethodHandle bindWithErrno(
      String name, FunctionDescriptor descriptor, Linker.Option... options) {
    Linker.Option[] all = Arrays.copyOf(options, options.length + 1);
    all[options.length] = Linker.Option.captureCallState("errno");
    return bind(name, descriptor, all);
  }

  /** A segment for one call's captured state, in {@code arena}. */
  public static MemorySegment callState(Arena arena) {
    return arena.allocate(CALL_STATE);
  }

  /** The {@code errno} a call left in {@code state}. */
  public static int errno(MemorySegment state) {
    return (int) ERRNO.get(state, 0L);
  }
}
