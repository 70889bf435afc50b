package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What a CompletionListener may call on its own objects (section 7.3.8): closing its producer,
 * committing or rolling back its session throw IllegalStateException; stopping its connection is
 * allowed (it is forbidden only to a MessageListener).
 */
class CompletionListenerTest {

    /** Sends one message asynchronously and returns what {@code call} threw in its onCompletion, or null. */
    private static Throwable fromCompletion(Session s, MessageProducer p, Queue q, Call call) throws Exception {
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        p.send(q, s.createTextMessage("m"), new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                try {
                    call.run();
                    thrown.complete(null);
                } catch (Throwable t) {
                    thrown.complete(t);
                }
            }

            @Override
            public void onException(Message message, Exception exception) {
                thrown.complete(exception);
            }
        });
        return thrown.get(Jms.RECEIVE_MS, TimeUnit.MILLISECONDS);
    }

    private interface Call {
        void run() throws Exception;
    }

    @ProviderTest
    void aCompletionListenerMayNotCloseItsProducer(Jms jms) throws Exception {
        Session s = jms.session();
        Queue q = jms.queue(s, "close-own");
        MessageProducer p = s.createProducer(null);
        Throwable thrown = fromCompletion(s, p, q, p::close);
        assertTrue(thrown instanceof IllegalStateException, "threw " + thrown);
    }

    @ProviderTest
    void aCompletionListenerMayNotCommitOrRollBackItsSession(Jms jms) throws Exception {
        jms.skipOnArtemis("section 7.3.8: Artemis 2.40 lets a completion listener commit its own session");
        Session tx = jms.connection().createSession(true, Session.SESSION_TRANSACTED);
        Queue q = jms.queue(tx, "commit-own");
        MessageProducer p = tx.createProducer(null);
        Throwable commit = fromCompletion(tx, p, q, tx::commit);
        assertTrue(commit instanceof IllegalStateException, "commit threw " + commit);
        Throwable rollback = fromCompletion(tx, p, q, tx::rollback);
        assertTrue(rollback instanceof IllegalStateException, "rollback threw " + rollback);
        tx.rollback();
    }

    @ProviderTest
    void aCompletionListenerMayStopItsConnection(Jms jms) throws Exception {
        Connection c = jms.connection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = jms.queue(s, "stop-own");
        Throwable thrown = fromCompletion(s, s.createProducer(null), q, c::stop);
        assertEquals(null, thrown);
    }
}
