package dev.cairn.durability.file;

import static dev.cairn.durability.file.SuperblockLayout.CHECKPOINT_LSN_OFFSET;
import static dev.cairn.durability.file.SuperblockLayout.CRC_OFFSET;
import static dev.cairn.durability.file.SuperblockLayout.EPOCH_OFFSET;
import static dev.cairn.durability.file.SuperblockLayout.FLAGS_KNOWN;
import static dev.cairn.durability.file.SuperblockLayout.FLAGS_OFFSET;
import static dev.cairn.durability.file.SuperblockLayout.FLAG_CLEAN_SHUTDOWN;
import static dev.cairn.durability.file.SuperblockLayout.MAGIC;
import static dev.cairn.durability.file.SuperblockLayout.MAGIC_OFFSET;
import static dev.cairn.durability.file.SuperblockLayout.MAX_PAYLOAD_BYTES;
import static dev.cairn.durability.file.SuperblockLayout.PAYLOAD_LENGTH_OFFSET;
import static dev.cairn.durability.file.SuperblockLayout.PAYLOAD_OFFSET;
import static dev.cairn.durability.file.SuperblockLayout.SLOT_BYTES;
import static dev.cairn.durability.file.SuperblockLayout.SLOT_COUNT;
import static dev.cairn.durability.file.SuperblockLayout.VERSION_CURRENT;
import static dev.cairn.durability.file.SuperblockLayout.VERSION_OFFSET;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.FormatVersionException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The superblock: the small file that says where recovery starts. Two slots ({@link
 * SuperblockLayout}) are written alternately; each write is forced before it returns, so at any
 * moment at least one slot is whole, and a crash in the middle of a write leaves the previous state
 * readable (I8).
 *
 * {@snippet class=dev.cairn.durability.log.DurabilityExamplesTest region=superblock}
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Lifecycle: create() writes "<file>.tmp" (slot 0 = epoch 1, slot 1 zero), forces it, renames it
 * to <file> and syncs the directory: the file either exists whole or not at all. open() reads
 * both slots, forces the file (a killed owner may have left a written but unforced slot in the
 * page cache: forcing it makes what was read durable before anyone acts on it) and keeps the
 * handle; write() overwrites the slot that does NOT hold the current state, forces, and only
 * then makes the new state current.
 *
 * Recovery (open): a slot is valid if magic, version, CRC, payload length and reserved flags
 * hold. The valid slot with the larger epoch wins; one bad slot is a torn or never-written
 * write and is ignored; two bad slots are CorruptFileException; a slot with our magic and an
 * unknown version is FormatVersionException (it may be the newer slot, so falling back to the
 * other would roll back); a foreign magic in both slots is FormatVersionException naming what
 * the file looks like.
 *
 * Failure: if a write or its force fails, the slot's state is unknown, so the superblock is
 * failed: every later write throws DurabilityFailedException with the original cause. The
 * state returned by current() stays the last one known durable.
 *
 * Concurrency: write() and close() are synchronized; current() is a volatile read.
 * }</pre>
 */
public final class Superblock implements AutoCloseable {

  /**
   * One superblock state: the slot's epoch (increases by one per write), the checkpoint LSN, the
   * clean-shutdown flag and the owner's opaque payload.
   */
  public record State(long epoch, long checkpointLsn, boolean cleanShutdown, byte[] payload) {
    public State {
      Objects.requireNonNull(payload, "payload");
      payload = payload.clone();
    }

    /** A copy of the payload. */
    @Override
    public byte[] payload() {
      return payload.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof State that
          && epoch == that.epoch
          && checkpointLsn == that.checkpointLsn
          && cleanShutdown == that.cleanShutdown
          && Arrays.equals(payload, that.payload);
    }

    @Override
    public int hashCode() {
      return Objects.hash(epoch, checkpointLsn, cleanShutdown, Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
      return "State[epoch="
          + epoch
          + ", checkpointLsn="
          + checkpointLsn
          + ", cleanShutdown="
          + cleanShutdown
          + ", payloadBytes="
          + payload.length
          + "]";
    }
  }

  private final Path file;
  private final FileHandle handle;
  private volatile State current;
  private int currentSlot; // guarded by this
  private DurabilityFailedException failure; // guarded by this
  private boolean closed; // guarded by this
  private ByteBuffer slotBuffer; // guarded by this

  private Superblock(Path file, FileHandle handle, State current, int currentSlot) {
    this.file = file;
    this.handle = handle;
    this.current = current;
    this.currentSlot = currentSlot;
  }

  /**
   * Creates the superblock file with an initial state of epoch 1, atomically (a temporary file,
   * forced, renamed into place, directory synced), and opens it.
   *
   * @throws FileAlreadyExistsException if {@code file} exists
   * @throws IllegalArgumentException if the payload is longer than {@link
   *     SuperblockLayout#MAX_PAYLOAD_BYTES}
   * @throws IOException if the file cannot be written (a full disk, for example); nothing is left
   *     behind under {@code file}
   */
  public static Superblock create(
      FileLayer layer, Path file, long checkpointLsn, boolean cleanShutdown, byte[] payload)
      throws IOException {
    checkPayload(payload);
    if (layer.exists(file)) {
      throw new FileAlreadyExistsException(file.toString());
    }
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    State initial = new State(1, checkpointLsn, cleanShutdown, payload);
    layer.delete(temp);
    try (FileHandle out = layer.open(temp, FileLayer.OpenMode.CREATE_NEW)) {
      out.preallocate(SuperblockLayout.FILE_BYTES);
      out.write(encode(initial), SuperblockLayout.slotOffset(0));
      out.force();
    }
    layer.rename(temp, file);
    layer.syncDirectory(parentOf(file));
    return open(layer, file);
  }

  /**
   * Opens an existing superblock file for reading and writing, and forces it: the state it returns
   * is then durable even if the previous owner was killed between a write and its force (the page
   * cache would otherwise serve a state a power loss can still take back).
   *
   * @throws CorruptFileException if neither slot is valid
   * @throws FormatVersionException if a slot has another format version, or the file is another
   *     kind of file
   * @throws java.nio.file.NoSuchFileException if there is no such file
   */
  public static Superblock open(FileLayer layer, Path file) throws IOException {
    FileHandle handle = layer.open(file, FileLayer.OpenMode.READ_WRITE);
    boolean success = false;
    try {
      Chosen chosen = readSlots(handle, file);
      handle.force();
      Superblock superblock = new Superblock(file, handle, chosen.state, chosen.slot);
      success = true;
      return superblock;
    } finally {
      if (!success) {
        handle.close();
      }
    }
  }

  /**
   * Reads the current state of a superblock file without opening it for writing (for tools). Unlike
   * {@link #open}, it does not force the file: after a process crash the state may not be durable
   * yet. An owner about to act on the state uses {@link #open}.
   *
   * @throws CorruptFileException if neither slot is valid
   * @throws FormatVersionException if a slot has another format version, or the file is another
   *     kind of file
   */
  public static State read(FileLayer layer, Path file) throws IOException {
    try (FileHandle handle = layer.open(file, FileLayer.OpenMode.READ)) {
      return readSlots(handle, file).state;
    }
  }

  /** The file this superblock lives in. */
  public Path file() {
    return file;
  }

  /** The newest durable state. Thread-safe. */
  public State current() {
    return current;
  }

  /**
   * Writes a new state into the slot not holding the current one, with the next epoch, and forces
   * it. When this returns, the new state survives any crash; if it throws, a crash leaves either
   * state, and this superblock is failed.
   *
   * @return the new current state
   * @throws IllegalArgumentException if the payload is longer than {@link
   *     SuperblockLayout#MAX_PAYLOAD_BYTES}
   * @throws DurabilityFailedException if the write or force failed, now or earlier
   * @throws IllegalStateException if closed
   */
  public synchronized State write(long checkpointLsn, boolean cleanShutdown, byte[] payload) {
    checkPayload(payload);
    if (closed) {
      throw new IllegalStateException("superblock is closed: " + file);
    }
    if (failure != null) {
      throw new DurabilityFailedException(failure.getMessage(), failure.getCause());
    }
    State next = new State(current.epoch() + 1, checkpointLsn, cleanShutdown, payload);
    int slot = 1 - currentSlot;
    try {
      handle.write(encodeInto(next, slotBuffer()), SuperblockLayout.slotOffset(slot));
      handle.force();
    } catch (IOException e) {
      failure =
          new DurabilityFailedException(
              "superblock write failed: "
                  + file
                  + " slot "
                  + slot
                  + " (epoch "
                  + next.epoch()
                  + "); its state on disk is unknown, so this superblock accepts no more writes",
              e);
      throw failure;
    }
    currentSlot = slot;
    current = next;
    return next;
  }

  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      handle.close();
    }
  }

  // ------------------------------------------------------------------------------- encoding

  private static void checkPayload(byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    if (payload.length > MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException(
          "payload larger than a superblock slot: payloadBytes="
              + payload.length
              + " maxPayloadBytes="
              + MAX_PAYLOAD_BYTES);
    }
  }

  /** One slot's bytes for {@code state}, little-endian, ready to write. */
  static ByteBuffer encode(State state) {
    return encodeInto(state, ByteBuffer.allocate(SLOT_BYTES));
  }

  /**
   * The slot buffer of {@link #write}, kept from one write to the next (writes are synchronized): a
   * pile writes its superblock at every checkpoint, and a loop of checkpoints made a 4 KiB garbage
   * array of each.
   */
  private ByteBuffer slotBuffer() {
    if (slotBuffer == null) {
      slotBuffer = ByteBuffer.allocate(SLOT_BYTES);
    }
    return slotBuffer;
  }

  /** {@link #encode} into {@code slot}, a heap buffer of {@code SLOT_BYTES}, zeroed first. */
  private static ByteBuffer encodeInto(State state, ByteBuffer slot) {
    Arrays.fill(slot.array(), slot.arrayOffset(), slot.arrayOffset() + SLOT_BYTES, (byte) 0);
    slot.clear().order(ByteOrder.LITTLE_ENDIAN);
    byte[] payload = state.payload;
    slot.putLong(MAGIC_OFFSET, MAGIC);
    slot.putInt(VERSION_OFFSET, VERSION_CURRENT);
    slot.putInt(FLAGS_OFFSET, state.cleanShutdown() ? FLAG_CLEAN_SHUTDOWN : 0);
    slot.putLong(EPOCH_OFFSET, state.epoch());
    slot.putLong(CHECKPOINT_LSN_OFFSET, state.checkpointLsn());
    slot.putInt(PAYLOAD_LENGTH_OFFSET, payload.length);
    slot.put(PAYLOAD_OFFSET, payload);
    slot.putInt(CRC_OFFSET, crc(slot, payload.length));
    return slot;
  }

  private static int crc(ByteBuffer slot, int payloadLength) {
    CRC32C crc = new CRC32C();
    byte[] bytes = slot.array();
    int base = slot.arrayOffset();
    crc.update(bytes, base, CRC_OFFSET);
    crc.update(bytes, base + PAYLOAD_OFFSET, payloadLength);
    return (int) crc.getValue();
  }

  /** The outcome of decoding one slot. */
  private sealed interface Decoded {}

  private record Valid(State state) implements Decoded {}

  private record Invalid(String reason, boolean zero, long magic) implements Decoded {}

  private record OtherVersion(int version) implements Decoded {}

  private static Decoded decode(ByteBuffer slot) {
    slot.order(ByteOrder.LITTLE_ENDIAN);
    boolean zero = true;
    for (int i = 0; i < SLOT_BYTES && zero; i += 8) {
      zero = slot.getLong(i) == 0;
    }
    if (zero) {
      return new Invalid("all zero (never written)", true, 0);
    }
    long magic = slot.getLong(MAGIC_OFFSET);
    if (magic != MAGIC) {
      return new Invalid("magic is " + FileKind.describe(magic), false, magic);
    }
    // the checksum before any field it covers: a damaged version byte is damage (the other
    // slot then serves), not a slot of a newer Cairn
    int payloadLength = slot.getInt(PAYLOAD_LENGTH_OFFSET);
    if (payloadLength < 0 || payloadLength > MAX_PAYLOAD_BYTES) {
      return new Invalid("payload length " + payloadLength + " out of range", false, magic);
    }
    int stored = slot.getInt(CRC_OFFSET);
    int computed = crc(slot, payloadLength);
    if (stored != computed) {
      return new Invalid(
          String.format(
              java.util.Locale.ROOT,
              "checksum mismatch (stored 0x%08x, computed 0x%08x)",
              stored,
              computed),
          false,
          magic);
    }
    int version = slot.getInt(VERSION_OFFSET);
    if (version != VERSION_CURRENT) {
      return new OtherVersion(version);
    }
    int flags = slot.getInt(FLAGS_OFFSET);
    if ((flags & ~FLAGS_KNOWN) != 0) {
      return new Invalid(
          String.format(java.util.Locale.ROOT, "reserved flag bits set: 0x%08x", flags),
          false,
          magic);
    }
    byte[] payload = new byte[payloadLength];
    slot.get(PAYLOAD_OFFSET, payload);
    return new Valid(
        new State(
            slot.getLong(EPOCH_OFFSET),
            slot.getLong(CHECKPOINT_LSN_OFFSET),
            (flags & FLAG_CLEAN_SHUTDOWN) != 0,
            payload));
  }

  private record Chosen(State state, int slot) {}

  private static Chosen readSlots(FileHandle handle, Path file) throws IOException {
    Decoded[] slots = new Decoded[SLOT_COUNT];
    for (int i = 0; i < SLOT_COUNT; i++) {
      ByteBuffer bytes = ByteBuffer.allocate(SLOT_BYTES);
      int n = handle.read(bytes, SuperblockLayout.slotOffset(i));
      slots[i] =
          n < SLOT_BYTES
              ? new Invalid(
                  "file ends inside the slot (" + n + " of " + SLOT_BYTES + " bytes)", n == 0, 0)
              : decode(bytes);
    }
    for (Decoded slot : slots) {
      if (slot instanceof OtherVersion(int version)) {
        throw new FormatVersionException(file, version, VERSION_CURRENT);
      }
    }
    int best = -1;
    for (int i = 0; i < SLOT_COUNT; i++) {
      if (slots[i] instanceof Valid(State state)
          && (best < 0 || state.epoch() > ((Valid) slots[best]).state().epoch())) {
        best = i;
      }
    }
    if (best >= 0) {
      return new Chosen(((Valid) slots[best]).state(), best);
    }
    Invalid first = (Invalid) slots[0];
    Invalid second = (Invalid) slots[1];
    if (!first.zero()
        && !second.zero()
        && first.magic() == second.magic()
        && first.magic() != MAGIC) {
      throw new FormatVersionException(
          file,
          "expected a Cairn superblock, but the file is " + FileKind.describe(first.magic()),
          VERSION_CURRENT);
    }
    throw new CorruptFileException(
        file,
        first.zero() ? SuperblockLayout.slotOffset(1) : SuperblockLayout.slotOffset(0),
        "neither superblock slot is valid: slot 0: "
            + first.reason()
            + "; slot 1: "
            + second.reason());
  }

  static Path parentOf(Path file) {
    Path parent = file.toAbsolutePath().getParent();
    if (parent == null) {
      throw new IllegalArgumentException("file has no parent directory: " + file);
    }
    return parent;
  }
}
