package io.ramjet.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Ports the OS hands out for 127.0.0.1. A Raft group's members must know each other's addresses
 * before any of them starts, so a test takes ephemeral ports from the OS, closes them, and gives
 * them to the controllers: a tiny window in which another process could take one.
 */
final class FreePorts {

    private FreePorts() {
    }

    static int next() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ControllerGroup groupOf(int size) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < size; i++) {
            text.append(i == 0 ? "" : ",").append("n").append(i).append("=127.0.0.1:").append(next());
        }
        return ControllerGroup.parse(text.toString());
    }
}
