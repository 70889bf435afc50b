package io.ramjet.storage;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Names one message queue, and its directory: the destination percent-encoded (only
 * {@code [A-Za-z0-9_-]} kept as is, so no name can climb out of the store), then the queue id.
 */
record QueueKey(String destination, int queueId) {

    QueueKey {
        Objects.requireNonNull(destination, "destination");
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId " + queueId);
        }
    }

    String directoryName() {
        StringBuilder name = new StringBuilder();
        for (byte b : destination.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
                name.append(c);
            } else {
                name.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return name.isEmpty() ? "%" : name.toString();
    }

    static String decodeDirectoryName(String name) {
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
}
