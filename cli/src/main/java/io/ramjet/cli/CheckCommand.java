package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.model.stats.BrokerFacts;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * {@code ramjet-admin check}: the health of a deployment for a script or a probe. Exit code 0
 * when every check passed, 1 when one failed (the failing ones say why).
 */
@Command(name = "check", description = {"health: NameServer reachable, brokers registered, disk below its limit,",
        "a round trip through a queue; exit code 0 when healthy, 1 when not"}, mixinStandardHelpOptions = true)
final class CheckCommand implements Callable<Integer> {

    /** One check's outcome. */
    public record Result(String check, boolean ok, String detail) {
    }

    @Mixin
    Common common;

    @Option(names = "--queue", defaultValue = "ramjet.check", description = "the queue of the round trip (default: ${DEFAULT-VALUE})")
    String queue;

    @Option(names = "--no-round-trip", description = "skip the round trip (a broker that does not create queues for clients)")
    boolean noRoundTrip;

    @Override
    public Integer call() {
        List<Result> results = new ArrayList<>();
        try (AdminClient admin = common.admin()) {
            List<BrokerInfo> brokers;
            try {
                brokers = admin.brokers();
                results.add(new Result("nameserver", true, "reachable at " + common.url));
            } catch (AdminException e) {
                results.add(new Result("nameserver", false, e.getMessage()));
                return report(results);
            }
            results.add(new Result("brokers", !brokers.isEmpty(), brokers.size() + " registered"));
            for (BrokerInfo broker : brokers) {
                results.add(disk(admin, broker));
            }
        }
        if (!noRoundTrip) {
            results.add(roundTrip());
        }
        return report(results);
    }

    private static Result disk(AdminClient admin, BrokerInfo broker) {
        String check = "disk " + broker.brokerName();
        try {
            BrokerFacts f = admin.call(broker.address(), CommandCode.ADMIN_BROKER, null, BrokerFacts.class);
            return new Result(check, f.diskUse() < f.diskUseLimit(), String.format("%.1f%% used, limit %.1f%%",
                    f.diskUse() * 100, f.diskUseLimit() * 100));
        } catch (AdminException e) {
            return new Result(check, false, e.getMessage());
        }
    }

    private Result roundTrip() {
        String token = UUID.randomUUID().toString();
        long started = System.nanoTime();
        try (JMSContext context = common.context(JMSContext.AUTO_ACKNOWLEDGE)) {
            Queue q = context.createQueue(queue);
            try (JMSConsumer consumer = context.createConsumer(q, "token = '" + token + "'")) {
                context.createProducer().setProperty("token", token).send(q, "check");
                boolean back = consumer.receive(common.timeoutMillis()) != null;
                long millis = (System.nanoTime() - started) / 1_000_000;
                return new Result("round trip", back, back ? "through " + queue + " in " + millis + " ms"
                        : "sent to " + queue + ", nothing came back within " + common.timeoutMillis() + " ms");
            }
        } catch (RuntimeException e) {
            return new Result("round trip", false, String.valueOf(e.getMessage()));
        }
    }

    private int report(List<Result> results) {
        common.output().table(results,
                new Column<>("CHECK", Result::check),
                new Column<>("OK", r -> r.ok() ? "ok" : "FAILED"),
                new Column<>("DETAIL", Result::detail));
        return results.stream().allMatch(Result::ok) ? 0 : 1;
    }
}
