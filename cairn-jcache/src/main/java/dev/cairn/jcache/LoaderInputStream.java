package dev.cairn.jcache;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Java deserialization that resolves classes with the cache manager's class loader first, then as
 * {@link ObjectInputStream} does: for what the manager keeps of its own (class descriptors,
 * configurations' factories), whose classes are the application's.
 */
final class LoaderInputStream extends ObjectInputStream {
  private final ClassLoader loader;

  LoaderInputStream(InputStream in, ClassLoader loader) throws IOException {
    super(in);
    this.loader = loader;
  }

  @Override
  protected Class<?> resolveClass(ObjectStreamClass desc)
      throws IOException, ClassNotFoundException {
    try {
      return Class.forName(desc.getName(), false, loader);
    } catch (ClassNotFoundException e) {
      return super.resolveClass(desc);
    }
  }
}
