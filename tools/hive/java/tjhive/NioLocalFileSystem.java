package tjhive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system (fs.file.impl), with permissions set and read through java.nio.
 *
 * <p>Without Hadoop's native library (the wheel has none) RawLocalFileSystem forks {@code chmod}
 * for every permission it sets and {@code ls -ld} for every status whose permission or owner is
 * read: about forty processes per MapReduce job (staging, scratch and warehouse folders), each a
 * few milliseconds of CPU. The same modes are set and read here in the JVM; data, plans and the
 * files' permissions are what Hadoop's own code makes.
 */
public final class NioLocalFileSystem extends LocalFileSystem {
  private static final PosixFilePermission[] BITS = {
    PosixFilePermission.OTHERS_EXECUTE,
    PosixFilePermission.OTHERS_WRITE,
    PosixFilePermission.OTHERS_READ,
    PosixFilePermission.GROUP_EXECUTE,
    PosixFilePermission.GROUP_WRITE,
    PosixFilePermission.GROUP_READ,
    PosixFilePermission.OWNER_EXECUTE,
    PosixFilePermission.OWNER_WRITE,
    PosixFilePermission.OWNER_READ,
  };

  public NioLocalFileSystem() {
    super(new Raw());
  }

  static final class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      int mode = permission.toShort();
      if ((mode & ~0777) != 0) { // the sticky bit: java.nio cannot set it, chmod can
        super.setPermission(p, permission);
        return;
      }
      Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
      for (int bit = 0; bit < BITS.length; bit++) {
        if ((mode & (1 << bit)) != 0) {
          set.add(BITS[bit]);
        }
      }
      Files.setPosixFilePermissions(pathToFile(p).toPath(), set);
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
      return withPermission(super.getFileStatus(f));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
      FileStatus[] statuses = super.listStatus(f);
      for (int i = 0; i < statuses.length; i++) {
        statuses[i] = withPermission(statuses[i]);
      }
      return statuses;
    }

    /** Hadoop's status, its permission, owner and group read now (Hadoop reads them with ls -ld). */
    private FileStatus withPermission(FileStatus status) throws IOException {
      if (status.isSymlink()) {
        return status;
      }
      PosixFileAttributes attributes =
          Files.readAttributes(pathToFile(status.getPath()).toPath(), PosixFileAttributes.class);
      int mode = 0;
      for (int bit = 0; bit < BITS.length; bit++) {
        if (attributes.permissions().contains(BITS[bit])) {
          mode |= 1 << bit;
        }
      }
      return new FileStatus(
          status.getLen(),
          status.isDirectory(),
          status.getReplication(),
          status.getBlockSize(),
          status.getModificationTime(),
          status.getAccessTime(),
          new FsPermission((short) mode),
          attributes.owner().getName(),
          attributes.group().getName(),
          status.getPath());
    }
  }
}
