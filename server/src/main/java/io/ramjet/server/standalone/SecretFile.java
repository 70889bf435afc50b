package io.ramjet.server.standalone;

import io.ramjet.server.config.NameServerSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The NameServer secret of a standalone server: read from its file in the data directory, or
 * generated into it at the first start (readable by its owner only, where the file system has
 * POSIX permissions), so a fresh laptop start stays one command and its brokers are still
 * authenticated. Another broker joining that NameServer needs the file's content.
 */
final class SecretFile {

    /** Where a standalone server keeps its generated secret, under its data directory. */
    static final String NAME = "namesrv.secret";

    private static final Logger LOG = LoggerFactory.getLogger(SecretFile.class);

    private SecretFile() {
    }

    static NameServerSecret readOrCreate(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try {
                if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                } else {
                    Files.createFile(file);
                }
                Files.writeString(file, NameServerSecret.generate() + System.lineSeparator(), StandardCharsets.UTF_8);
                LOG.info("generated the NameServer secret into {}; a broker joining this NameServer needs it "
                        + "(broker key nameServerSecretFile)", file);
            } catch (FileAlreadyExistsException raced) {
                // another process created it first: use theirs
            }
        }
        return NameServerSecret.fromFile(file);
    }
}
