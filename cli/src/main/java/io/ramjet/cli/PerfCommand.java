package io.ramjet.cli;

import jakarta.jms.JMSContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code ramjet-admin perf}: a short producer/consumer run on one queue that reports the send and
 * receive rates, the end-to-end latency percentiles and whether anything was lost or duplicated.
 * Exit code 1 when a message was lost or duplicated.
 */
@Command(name = "perf", description = "a short producer/consumer throughput run with a latency histogram",
        mixinStandardHelpOptions = true)
final class PerfCommand implements Callable<Integer> {

    @Mixin
    Common common;

    @Option(names = {"-d", "--destination"}, defaultValue = "ramjet.perf", description = "the queue (default: ${DEFAULT-VALUE})")
    String queue;

    @Option(names = {"-n", "--count"}, defaultValue = "10000",
            description = "messages to send in all (default: ${DEFAULT-VALUE}); ignored with --duration")
    long count;

    @Option(names = "--duration", description = "send for this many seconds instead of a count")
    Long durationSeconds;

    @Option(names = {"-s", "--size"}, defaultValue = "1024", description = "body bytes per message (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--non-persistent", description = "send NON_PERSISTENT")
    boolean nonPersistent;

    @Option(names = "--producers", defaultValue = "1", description = "producer sessions (default: ${DEFAULT-VALUE})")
    int producers;

    @Option(names = "--consumers", defaultValue = "1", description = "consumer sessions (default: ${DEFAULT-VALUE})")
    int consumers;

    @Option(names = "--tx-batch", defaultValue = "0",
            description = "transacted sessions committing every N messages, 0 for none (default: ${DEFAULT-VALUE})")
    int transactedBatch;

    @Option(names = "--drain-wait", defaultValue = "5000",
            description = "milliseconds without a message, once sending is done, before the missing ones count as lost (default: ${DEFAULT-VALUE})")
    long drainWaitMillis;

    @Override
    public Integer call() throws InterruptedException {
        PerfPlan plan = new PerfPlan(queue, durationSeconds == null ? count : 0,
                durationSeconds == null ? Duration.ZERO : Duration.ofSeconds(durationSeconds), size, !nonPersistent,
                producers, consumers, transactedBatch, Duration.ofMillis(drainWaitMillis));
        PerfReport report;
        try (JMSContext connection = common.context(JMSContext.AUTO_ACKNOWLEDGE)) {
            report = new PerfRun(plan).run(connection);
        }
        common.output().value(report, report.human());
        return report.lost() == 0 && report.duplicated() == 0 ? 0 : 1;
    }
}
