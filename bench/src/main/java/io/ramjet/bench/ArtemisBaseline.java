package io.ramjet.bench;

import io.ramjet.bench.workload.BenchConfig;

/**
 * Artemis's figures alone: the same as
 * {@code Bench --peers artemis --workloads 1,2,3}.
 *
 * <p>Arguments: {@code [count] [size] [heap]}, defaults 20000, 1024, 1g.
 */
public final class ArtemisBaseline {

    private ArtemisBaseline() {
    }

    public static void main(String[] args) {
        String count = args.length > 0 ? args[0] : "20000";
        String size = args.length > 1 ? args[1] : "1024";
        String heap = args.length > 2 ? args[2] : "1g";
        double scale = Double.parseDouble(count) / BenchConfig.SEND_COUNT;
        Bench.main(new String[] {"--peers", "artemis", "--workloads", "1,2,3", "--count", Double.toString(scale),
                "--size", size, "--heap", heap});
    }
}
