package dev.cairn.pile;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.file.DirectoryLock;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.log.LogLayout;
import java.io.IOException;
import java.io.Serial;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a directory given to {@link Pile#open} holds, judged before anything in it changes, and the
 * one place that decides whether an open may go on, create a pile, or must refuse. See
 * docs/DURABILITY.md, "Opening a directory".
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Names. Pile files are the names a pile makes: pile.sb (and pile.sb.tmp while it is created),
 * pile-meta.0 and .1, seg-NNNNN.dat and seg-NNNNN.crc, types.cat, and the directory wal/. The
 * create marker pile.creating is a pile file only when its bytes are the marker's. cairn.lock
 * (DirectoryLock) counts as nothing: every owner leaves it, a crashed create included, and a
 * directory holding only it is empty. Anything else is a foreign file.
 *
 * Kinds, in order: a missing path; a path that is not a directory; a pile (pile.sb present,
 * whatever else is there: an existing pile opens as before); an interrupted create (the marker,
 * no pile.sb); an empty directory; pile files without pile.sb; foreign files only.
 *
 * Creating (PileCreation.create) happens only in a missing or empty directory, or over an
 * interrupted create of its own:
 *   C1. The marker is written, forced, and its name made durable, before any other file.
 *   C2. Then pile-meta.0, types.cat and the log (wal/), each forced and its name durable.
 *   C3. pile.sb last, atomically (written as pile.sb.tmp, renamed): a pile.sb means C2 is done.
 *   C4. The marker is deleted, durably. A marker beside a pile.sb is one C4 did not finish.
 * So a crash during a create leaves the marker and some of the names of C2/C3, never pile.sb
 * (C3 is atomic). The next open deletes those names, and only those, then creates afresh: it
 * refuses instead (nothing deleted) if anything else is there, a file the user added, a segment,
 * a second metadata file. A pile's files without pile.sb and without the marker are never a
 * crashed create of this build: they are refused with CorruptFileException, left as they are.
 *
 * Nothing here deletes a file a create does not make, and nothing is deleted unless the marker
 * (written first, into a directory that was empty) vouches for it.
 * }</pre>
 */
final class DirectoryContents {

  /** The create marker's name; see the implementation note. */
  static final String CREATE_MARKER = "pile.creating";

  /** What the marker holds: a text, so that a person who finds it knows what it is. */
  static final byte[] MARKER_TEXT =
      ("Cairn: a pile is being created in this directory. If this"
              + " file remains, that create was interrupted; the next Pile.open redoes it.\n")
          .getBytes(StandardCharsets.US_ASCII);

  private static final String TEMP_SUPERBLOCK = PileFiles.SUPERBLOCK + ".tmp";
  private static final String META_TEMP = LogLayout.META_FILE_NAME + ".tmp";

  /** What the directory is, as far as opening it goes. */
  enum Kind {
    MISSING,
    NOT_A_DIRECTORY,
    PILE,
    INTERRUPTED_CREATE,
    EMPTY,
    PILE_FILES_WITHOUT_SUPERBLOCK,
    FOREIGN
  }

  private final Path directory;
  private final Kind kind;
  private final boolean marker;
  // the names, for the kinds other than PILE (of a pile, only the superblock and the marker are
  // looked at)
  private final List<String> pileFiles; // names a pile makes, wal/ entries as "wal/name"
  private final List<String> foreign; // everything else but cairn.lock
  private final List<String> notFromACreate; // pile files a create never makes

  private DirectoryContents(
      Path directory,
      Kind kind,
      boolean marker,
      List<String> pileFiles,
      List<String> foreign,
      List<String> notFromACreate) {
    this.directory = directory;
    this.kind = kind;
    this.marker = marker;
    this.pileFiles = pileFiles;
    this.foreign = foreign;
    this.notFromACreate = notFromACreate;
  }

  /** Looks at {@code directory} without changing anything. */
  static DirectoryContents of(FileLayer layer, Path directory) throws IOException {
    if (!layer.exists(directory)) {
      return new DirectoryContents(directory, Kind.MISSING, false, List.of(), List.of(), List.of());
    }
    if (!layer.isDirectory(directory)) {
      return new DirectoryContents(
          directory, Kind.NOT_A_DIRECTORY, false, List.of(), List.of(), List.of());
    }
    // a pile is its superblock, whatever else is there: then nothing else is looked at, and the
    // directory, which holds one file per segment, is not listed
    Path superblockFile = directory.resolve(PileFiles.SUPERBLOCK);
    if (layer.exists(superblockFile) && !layer.isDirectory(superblockFile)) {
      Path markerFile = directory.resolve(CREATE_MARKER);
      boolean marker =
          layer.exists(markerFile) && !layer.isDirectory(markerFile) && isMarker(layer, markerFile);
      return new DirectoryContents(directory, Kind.PILE, marker, List.of(), List.of(), List.of());
    }
    boolean superblock = false;
    boolean marker = false;
    List<String> pileFiles = new ArrayList<>();
    List<String> foreign = new ArrayList<>();
    List<String> notFromACreate = new ArrayList<>();
    for (Path entry : layer.list(directory)) {
      String name = entry.getFileName().toString();
      boolean isDirectory = layer.isDirectory(entry);
      if (name.equals(DirectoryLock.LOCK_FILE_NAME) && !isDirectory) {
        continue;
      }
      if (name.equals(PileFiles.SUPERBLOCK) && !isDirectory) {
        superblock = true;
        pileFiles.add(name);
      } else if (name.equals(CREATE_MARKER) && !isDirectory && isMarker(layer, entry)) {
        marker = true;
      } else if (name.equals(PileFiles.LOG_DIRECTORY) && isDirectory) {
        pileFiles.add(name + "/");
        for (Path file : layer.list(entry)) {
          String inLog = file.getFileName().toString();
          if (!madeByLogCreate(inLog) || layer.isDirectory(file)) {
            notFromACreate.add(name + "/" + inLog);
          }
        }
      } else if (!isDirectory
          && (name.equals(TEMP_SUPERBLOCK)
              || name.equals(PileFiles.metaFile(directory, 0).getFileName().toString())
              || name.equals(PileTypeCatalog.FILE_NAME))) {
        pileFiles.add(name);
      } else if (!isDirectory
          && (name.equals(PileFiles.metaFile(directory, 1).getFileName().toString())
              || PileFiles.segmentIndexOf(entry) >= 0
              || PileFiles.pageCrcIndexOf(entry) >= 0)) {
        pileFiles.add(name);
        notFromACreate.add(name);
      } else {
        foreign.add(isDirectory ? name + "/" : name);
      }
    }
    Kind kind =
        superblock
            ? Kind.PILE
            : marker
                ? Kind.INTERRUPTED_CREATE
                : pileFiles.isEmpty() && foreign.isEmpty()
                    ? Kind.EMPTY
                    : !pileFiles.isEmpty() ? Kind.PILE_FILES_WITHOUT_SUPERBLOCK : Kind.FOREIGN;
    return new DirectoryContents(directory, kind, marker, pileFiles, foreign, notFromACreate);
  }

  Kind kind() {
    return kind;
  }

  /**
   * Throws unless an open in {@code mode} may go on with this directory: open the pile there, or
   * (missing, empty, an interrupted create) create one.
   *
   * @throws NotDirectoryException if the path is a file or anything else but a directory
   * @throws CorruptFileException if the directory holds a pile's files without its superblock
   * @throws DirectoryNotEmptyException if the directory holds foreign files and a create is allowed
   *     (or an interrupted create, and files such a create does not make)
   * @throws NoSuchFileException if there is no pile and none may be created: {@code OPEN_EXISTING},
   *     or read-only
   * @throws FileAlreadyExistsException if there is a pile and {@code mode} is {@code CREATE_NEW}
   */
  void check(PileOptions.OpenMode mode, boolean readOnly) throws IOException {
    boolean mayCreate = !readOnly && mode != PileOptions.OpenMode.OPEN_EXISTING;
    String noCreate = readOnly ? "" : "; OpenMode.OPEN_EXISTING creates none";
    switch (kind) {
      case MISSING -> {
        if (!mayCreate) {
          throw new NoSuchFileException(
              directory.toString(), null, "no pile: the directory does not exist" + noCreate);
        }
      }
      case NOT_A_DIRECTORY ->
          throw new NotAPileDirectory(
              directory.toString(),
              "not a directory: a pile (and a persistent cache, which is one) is a directory of"
                  + " files, and this path is a file; give the path of a missing or empty"
                  + " directory, or of a pile's directory");
      case PILE -> {
        if (mode == PileOptions.OpenMode.CREATE_NEW && !readOnly) {
          throw new FileAlreadyExistsException(
              directory.toString(),
              null,
              "the directory holds a pile already ("
                  + PileFiles.SUPERBLOCK
                  + "), and"
                  + " OpenMode.CREATE_NEW creates a pile only in a missing or empty directory;"
                  + " nothing was changed");
        }
      }
      case INTERRUPTED_CREATE -> {
        List<String> strays = new ArrayList<>(foreign);
        strays.addAll(notFromACreate);
        if (!strays.isEmpty()) {
          throw new DirectoryNotEmptyDirectory(
              directory.toString(),
              "a create of a pile here"
                  + " was interrupted ("
                  + CREATE_MARKER
                  + " remains), but the directory also holds "
                  + list(strays)
                  + ", which such a create does not make. Nothing was changed. Move"
                  + " those away and open again to redo the create, or choose another directory");
        }
        if (!mayCreate) {
          throw new NoSuchFileException(
              directory.resolve(PileFiles.SUPERBLOCK).toString(),
              null,
              "no pile in "
                  + directory
                  + ": a create of one was interrupted before it"
                  + " finished"
                  + noCreate
                  + " (open with OpenMode.CREATE_OR_OPEN to redo it)");
        }
      }
      case EMPTY -> {
        if (!mayCreate) {
          throw new NoSuchFileException(
              directory.resolve(PileFiles.SUPERBLOCK).toString(),
              null,
              "no pile in " + directory + ": the directory is empty" + noCreate);
        }
      }
      case PILE_FILES_WITHOUT_SUPERBLOCK ->
          throw new CorruptFileException(
              directory.resolve(PileFiles.SUPERBLOCK),
              0,
              "the superblock is missing, but the"
                  + " directory holds files named like a pile's: "
                  + list(pileFiles)
                  + (foreign.isEmpty() ? "" : " (and " + list(foreign) + ")")
                  + ". Nothing was"
                  + " changed: Cairn never creates a pile over files it did not make. If they are a"
                  + " pile's, restore its "
                  + PileFiles.SUPERBLOCK
                  + " from a backup taken with"
                  + " them; if they belong to something else, choose another directory");
      case FOREIGN -> {
        String what =
            "no pile in "
                + directory
                + ": it holds no "
                + PileFiles.SUPERBLOCK
                + ", but other files: "
                + list(foreign);
        if (!mayCreate) {
          throw new NoSuchFileException(
              directory.resolve(PileFiles.SUPERBLOCK).toString(), null, what + noCreate);
        }
        throw new DirectoryNotEmptyDirectory(
            directory.toString(),
            what
                + ". A pile is created"
                + " only in a missing or empty directory, so that it never deletes or overwrites a"
                + " file of yours; nothing was changed: choose another directory");
      }
      default -> throw new AssertionError(kind);
    }
  }

  /**
   * Deletes what an interrupted create left ({@link Kind#INTERRUPTED_CREATE}, checked by {@link
   * #check}), the marker last; or, beside a pile's superblock, a marker a finished create did not
   * get to delete. Does nothing otherwise.
   */
  void removeLeftoversOfACreate(FileLayer layer) throws IOException {
    if (kind == Kind.INTERRUPTED_CREATE) {
      removeMadeByCreate(layer, directory);
    } else if (kind == Kind.PILE && marker) {
      layer.delete(directory.resolve(CREATE_MARKER));
      layer.syncDirectory(directory);
    }
  }

  /**
   * Deletes every name a create makes in {@code directory} (C2, C3 of the implementation note),
   * then the marker, each step durable. Only for a directory whose marker vouches that a create of
   * this pile made them.
   */
  static void removeMadeByCreate(FileLayer layer, Path directory) throws IOException {
    Path log = directory.resolve(PileFiles.LOG_DIRECTORY);
    if (layer.isDirectory(log)) {
      for (Path file : layer.list(log)) {
        if (madeByLogCreate(file.getFileName().toString())) {
          layer.delete(file);
        }
      }
      layer.syncDirectory(log);
      layer.delete(log);
    }
    for (String name :
        List.of(
            PileFiles.SUPERBLOCK,
            TEMP_SUPERBLOCK,
            PileTypeCatalog.FILE_NAME,
            PileFiles.metaFile(directory, 0).getFileName().toString())) {
      layer.delete(directory.resolve(name));
    }
    layer.syncDirectory(directory);
    layer.delete(directory.resolve(CREATE_MARKER));
    layer.syncDirectory(directory);
  }

  /** C1: the marker, forced, its name durable. */
  static void writeMarker(FileLayer layer, Path directory) throws IOException {
    try (FileHandle out =
        layer.open(directory.resolve(CREATE_MARKER), FileLayer.OpenMode.CREATE_NEW)) {
      out.write(MemorySegment.ofArray(MARKER_TEXT), 0);
      out.force();
    }
    layer.syncDirectory(directory);
  }

  /** C4. */
  static void removeMarker(FileLayer layer, Path directory) throws IOException {
    layer.delete(directory.resolve(CREATE_MARKER));
    layer.syncDirectory(directory);
  }

  /**
   * Whether {@code file} is the marker: its bytes are the marker's, or a prefix of them with pages
   * a crash left unwritten (zeros), as a power loss before C1's force can leave it.
   */
  private static boolean isMarker(FileLayer layer, Path file) throws IOException {
    byte[] bytes = new byte[MARKER_TEXT.length + 1];
    long read;
    try (FileHandle in = layer.open(file, FileLayer.OpenMode.READ)) {
      read = in.read(MemorySegment.ofArray(bytes), 0);
    }
    if (read > MARKER_TEXT.length) {
      return false;
    }
    for (int i = 0; i < read; i++) {
      if (bytes[i] != MARKER_TEXT[i] && bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether a log's create makes a file of this name (WriteAheadLog.create). */
  private static boolean madeByLogCreate(String name) {
    return name.equals(LogLayout.META_FILE_NAME) || name.equals(META_TEMP) || isLogFileName(name);
  }

  /** {@code wal-} and at least four decimal digits, then {@code .log} (LogLayout.fileName). */
  private static boolean isLogFileName(String name) {
    int digits = name.length() - "wal-".length() - ".log".length();
    if (digits < 4 || !name.startsWith("wal-") || !name.endsWith(".log")) {
      return false;
    }
    for (int i = "wal-".length(); i < "wal-".length() + digits; i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static String list(List<String> names) {
    int shown = Math.min(names.size(), 10);
    String head = String.join(", ", names.subList(0, shown));
    return names.size() > shown ? head + " and " + (names.size() - shown) + " more" : head;
  }

  /** {@link NotDirectoryException} with a reason (the JDK's carries only the path). */
  private static final class NotAPileDirectory extends NotDirectoryException {
    @Serial private static final long serialVersionUID = 1L;
    private final String reason;

    NotAPileDirectory(String file, String reason) {
      super(file);
      this.reason = reason;
    }

    @Override
    public String getReason() {
      return reason;
    }
  }

  /** {@link DirectoryNotEmptyException} with a reason (the JDK's carries only the path). */
  private static final class DirectoryNotEmptyDirectory extends DirectoryNotEmptyException {
    @Serial private static final long serialVersionUID = 1L;
    private final String reason;

    DirectoryNotEmptyDirectory(String directory, String reason) {
      super(directory);
      this.reason = reason;
    }

    @Override
    public String getReason() {
      return reason;
    }
  }
}
