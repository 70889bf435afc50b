package io.ramjet.server.broker.session;

import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which client session holds each JMS client id. A claim lasts until its session releases it or
 * closes, for any reason; another session asking for a held id is refused
 * ({@link Refusal#CLIENT_ID_IN_USE}). A claim whose session is no longer open is taken over, so
 * a client that vanished does not keep its id until the close is noticed. Never logged or
 * snapshotted: after a restart no connection is left and no claim either. Thread-safe.
 */
public final class ClientIdClaims {

    /** Client ids are names, not payloads: longer ones are refused. */
    static final int MAX_CLIENT_ID_CHARS = 1024;

    private final Map<String, ClientSession> holders = new ConcurrentHashMap<>();

    /**
     * Claims {@code id} for {@code session}, or releases it.
     *
     * @throws BrokerException BAD_REQUEST for an empty or too long id, CLIENT_ID_IN_USE when
     *         another open session holds it
     */
    public void claim(String id, boolean release, ClientSession session) {
        if (id.isEmpty() || id.length() > MAX_CLIENT_ID_CHARS) {
            throw new BrokerException(Refusal.BAD_REQUEST, "a client id must have 1 to "
                    + MAX_CLIENT_ID_CHARS + " characters");
        }
        if (release) {
            holders.remove(id, session);
            return;
        }
        ClientSession holder = holders.compute(id, (k, current) ->
                current == null || !current.isOpen() ? session : current);
        if (!holder.equals(session)) {
            throw new BrokerException(Refusal.CLIENT_ID_IN_USE, "client id '" + id
                    + "' is in use by another connection");
        }
        if (!session.isOpen()) {
            // closed while claiming: closed() may have run before the claim was recorded
            holders.remove(id, session);
        }
    }

    /** Whether {@code session} holds {@code id} now. */
    public boolean heldBy(String id, ClientSession session) {
        return session.equals(holders.get(id));
    }

    /** The session closed: its ids are free. */
    public void closed(ClientSession session) {
        holders.values().removeIf(holder -> holder.equals(session));
    }
}
