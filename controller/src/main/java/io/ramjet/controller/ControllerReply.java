package io.ramjet.controller;

/** A controller's answer: the outcome and the group as it stands after the command. */
public record ControllerReply(ControllerStatus status, ReplicaInfo info) {

    public boolean ok() {
        return status == ControllerStatus.OK;
    }
}
