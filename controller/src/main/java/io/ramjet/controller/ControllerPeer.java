package io.ramjet.controller;

/** One member of the controller group: its Raft id and the address its Ratis server listens on. */
public record ControllerPeer(String id, String host, int port) {

    public ControllerPeer {
        if (id.isBlank() || host.isBlank() || port <= 0 || port > 65535) {
            throw new IllegalArgumentException("controller peer " + id + "=" + host + ":" + port);
        }
    }

    public String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return id + "=" + address();
    }
}
