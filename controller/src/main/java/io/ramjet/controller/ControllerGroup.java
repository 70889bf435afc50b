package io.ramjet.controller;

import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The controller group's fixed membership, written {@code n0=host:port,n1=host:port,...}: the same
 * text configures every controller and every broker's client. One Raft group per deployment; its
 * id is derived from a constant name so that all members agree on it without configuration.
 */
public record ControllerGroup(List<ControllerPeer> peers) {

    private static final RaftGroupId GROUP_ID =
            RaftGroupId.valueOf(UUID.nameUUIDFromBytes("ramjet-controller".getBytes(StandardCharsets.UTF_8)));

    public ControllerGroup {
        peers = List.copyOf(peers);
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("a controller group needs at least one peer");
        }
    }

    public static ControllerGroup parse(String text) {
        List<ControllerPeer> peers = new ArrayList<>();
        for (String item : text.split(",")) {
            String[] idAndAddress = item.trim().split("=", 2);
            int colon = idAndAddress.length == 2 ? idAndAddress[1].lastIndexOf(':') : -1;
            if (colon < 0) {
                throw new IllegalArgumentException("controller peer '" + item + "' is not id=host:port");
            }
            peers.add(new ControllerPeer(idAndAddress[0].trim(), idAndAddress[1].substring(0, colon),
                    Integer.parseInt(idAndAddress[1].substring(colon + 1))));
        }
        return new ControllerGroup(peers);
    }

    public ControllerPeer peer(String id) {
        return peers.stream().filter(peer -> peer.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no controller peer " + id + " in " + this));
    }

    RaftGroup raftGroup() {
        return RaftGroup.valueOf(GROUP_ID, peers.stream()
                .map(peer -> RaftPeer.newBuilder().setId(RaftPeerId.valueOf(peer.id())).setAddress(peer.address()).build())
                .collect(Collectors.toList()));
    }

    @Override
    public String toString() {
        return peers.stream().map(ControllerPeer::toString).collect(Collectors.joining(","));
    }
}
