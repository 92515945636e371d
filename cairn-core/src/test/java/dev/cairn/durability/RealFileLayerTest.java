package dev.cairn.durability;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The FileLayer contract on the operating system's files. */
class RealFileLayerTest extends FileLayerContractTest {
  @TempDir Path temp;

  @Override
  FileLayer layer() {
    return RealFileLayer.INSTANCE;
  }

  @Override
  Path directory() {
    return temp;
  }
}
