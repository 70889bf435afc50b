package io.ramjet.protocol.command;

import java.util.Objects;

/**
 * Header of {@link CommandCode#CLAIM_CLIENT_ID}: a JMS connection claims its client id on a
 * broker, which holds the claim for as long as the claiming transport connection lives and
 * refuses the same id from any other connection with {@link ErrorStatus#CLIENT_ID_IN_USE}.
 * Claiming an id the connection already holds succeeds again. With {@code release} the
 * connection gives up its claim (a client that claimed on several brokers and was refused by
 * one, or a connection closing); releasing an id it does not hold does nothing.
 *
 * @param clientId the JMS client id, not empty
 * @param release  false to claim, true to give the claim up
 */
public record ClaimClientIdRequest(String clientId, boolean release) {

    public ClaimClientIdRequest {
        Objects.requireNonNull(clientId, "clientId");
    }

    public static ClaimClientIdRequest claim(String clientId) {
        return new ClaimClientIdRequest(clientId, false);
    }

    public static ClaimClientIdRequest release(String clientId) {
        return new ClaimClientIdRequest(clientId, true);
    }
}
