package io.ramjet.bench.peer;

import io.ramjet.bench.jms.JmsWorkloads;
import io.ramjet.bench.jms.RamjetStallProbe;
import io.ramjet.bench.jms.StallProbe;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * A JMS peer's client, set up so that every drain row gives the same guarantee on both JMS
 * peers: its connection factory, the one its CLIENT_ACKNOWLEDGE drain uses, and the client
 * settings the results print ({@code setup.csv}), each departure from the product's default with
 * its reason. Ramjet's {@code acknowledge()} returns once the broker has the acknowledgement
 * durable (an ACK request, answered after its record is synced) and a commit once the
 * transaction is durable; its AUTO and DUPS_OK acknowledgements are batched LAZY_ACKs, answered
 * before they are durable. Artemis's Core client waits for neither acknowledgements nor the
 * commit of {@code acknowledge()} by default ({@code blockOnAcknowledge=false}), and always waits
 * for a transacted commit. A stalled drain's error carries what the {@link StallProbe} says (Ramjet's
 * asks its consumer and the brokers' delivery state; Artemis's says nothing).
 */
record JmsClient(ConnectionFactory factory, ConnectionFactory clientAcknowledgeFactory, StallProbe probe,
                 Map<String, String> settings, List<String> spec) {

    /**
     * The client {@code spec} names, as {@link #spec} gives it: {@code ramjet <url>} or
     * {@code artemis <url> <confirmationWindowSize>}.
     */
    static JmsClient of(List<String> spec) {
        return switch (spec.get(0)) {
            case "ramjet" -> ramjet(spec.get(1));
            case "artemis" -> artemis(spec.get(1), Long.parseLong(spec.get(2)));
            default -> throw new IllegalArgumentException("no JMS client " + spec.get(0));
        };
    }

    /** Ramjet's client at {@code url}, its defaults. */
    static JmsClient ramjet(String url) {
        ConnectionFactory f = new RamjetConnectionFactory(url);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("client-acknowledgements", "defaults: acknowledge() and commit() answered once durable;"
                + " AUTO and DUPS_OK acknowledgements batched (LAZY_ACK), answered before they are durable");
        return new JmsClient(f, f, new RamjetStallProbe(url), settings, List.of("ramjet", url));
    }

    /**
     * Artemis's Core JMS client at {@code url}: {@code blockOnDurableSend} (the default: a
     * persistent send returns once the journal has it), {@code blockOnAcknowledge} on the
     * CLIENT_ACKNOWLEDGE drain only, and the given {@code confirmationWindowSize}.
     */
    static JmsClient artemis(String url, long confirmationWindow) {
        String withWindow = url + (url.contains("?") ? "&" : "?") + "confirmationWindowSize=" + confirmationWindow;
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("client-blockOnDurableSend", "true (default): a persistent send returns once the journal has it");
        settings.put("client-blockOnAcknowledge", "true on the CLIENT_ACKNOWLEDGE drain (default false): its"
                + " acknowledge() returns once the acknowledgement is durable, as Ramjet's does; the default (false)"
                + " on the AUTO and DUPS_OK drains, whose acknowledgements neither client waits for durable; a"
                + " transacted commit waits on both");
        settings.put("client-confirmationWindowSize", confirmationWindow + " (default -1): a quarter of the bytes a"
                + " producer may have unconfirmed, so four confirmations are in flight");
        return new JmsClient(artemisFactory(withWindow, false), artemisFactory(withWindow, true), StallProbe.NONE,
                settings,
                List.of("artemis", url, Long.toString(confirmationWindow)));
    }

    private static ActiveMQConnectionFactory artemisFactory(String url, boolean blockOnAcknowledge) {
        ActiveMQConnectionFactory f = new ActiveMQConnectionFactory(url);
        f.setBlockOnDurableSend(true);
        f.setBlockOnAcknowledge(blockOnAcknowledge);
        return f;
    }

    JmsWorkloads workloads(int producers, int consumers) {
        return new JmsWorkloads(factory, clientAcknowledgeFactory, probe, producers, consumers);
    }

    /** This client in a JVM of its own, on its product's client library ({@link ClientProcess}). */
    ClientProcess process(int producers, int consumers) throws IOException {
        return ClientProcess.start(spec, producers, consumers, List.of());
    }
}
