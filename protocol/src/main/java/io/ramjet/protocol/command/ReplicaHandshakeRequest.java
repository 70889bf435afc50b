package io.ramjet.protocol.command;

/**
 * Header of {@link CommandCode#REPLICA_HANDSHAKE}: a slave of the broker group introduces itself
 * before fetching; the answer is a {@link ReplicaHandshakeResponse}.
 *
 * @param brokerName the group the slave belongs to; a master refuses another group's slave
 * @param brokerId   the slave's id in the group (not 0)
 */
public record ReplicaHandshakeRequest(String brokerName, long brokerId) {
}
