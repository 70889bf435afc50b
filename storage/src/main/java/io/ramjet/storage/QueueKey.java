package io.ramjet.storage;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Names one message queue, and its directory: the destination percent-encoded (only
 * {@code [A-Za-z0-9_-]} kept as is, so no name can climb out of the store), then the queue id.
 *
 * <p>An encoded name longer than {@value #MAX_PLAIN_LENGTH} characters would not fit a file
 * system's 255-byte name limit for every destination (a UTF-8 byte encodes to 3 characters), so
 * it becomes its first {@value #PREFIX_LENGTH} or so encoded characters, {@code ~}, and 16 hex
 * digits of the SHA-256 of the whole name: at most 117 characters whatever the name's length.
 * {@code ~} is never kept by the encoding, so a hashed name never equals a plain one. A hashed
 * name cannot be decoded: its directory holds the real name in a {@value #NAME_FILE} file, see
 * {@link ConsumeQueueTable}.
 */
record QueueKey(String destination, int queueId) {

    /** Longest directory name written as the plain encoding. */
    static final int MAX_PLAIN_LENGTH = 120;
    static final int PREFIX_LENGTH = 100;
    static final char HASH_SEPARATOR = '~';
    /** File in a hashed destination directory holding the destination's name in UTF-8. */
    static final String NAME_FILE = "name";

    QueueKey {
        Objects.requireNonNull(destination, "destination");
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId " + queueId);
        }
    }

    String directoryName() {
        return directoryName(destination);
    }

    static String directoryName(String destination) {
        byte[] utf8 = destination.getBytes(StandardCharsets.UTF_8);
        StringBuilder name = new StringBuilder();
        for (byte b : utf8) {
            char c = (char) (b & 0xFF);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
                name.append(c);
            } else {
                name.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        if (name.length() <= MAX_PLAIN_LENGTH) {
            return name.isEmpty() ? "%" : name.toString();
        }
        int cut = PREFIX_LENGTH;
        // never split a %XX triple
        int percent = name.lastIndexOf("%", cut - 1);
        if (percent >= 0 && percent + 3 > cut) {
            cut = percent;
        }
        return name.substring(0, cut) + HASH_SEPARATOR + HexFormat.of().formatHex(sha256(utf8), 0, 8);
    }

    /** Whether {@code directoryName} is a hashed one, whose real name is in its {@value #NAME_FILE} file. */
    static boolean isHashed(String directoryName) {
        return directoryName.indexOf(HASH_SEPARATOR) >= 0;
    }

    static String decodeDirectoryName(String name) {
        if (isHashed(name)) {
            throw new IllegalArgumentException(name + " is hashed: its name is in its " + NAME_FILE + " file");
        }
        if (name.equals("%")) {
            return "";
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%') {
                bytes.write(Integer.parseInt(name.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
