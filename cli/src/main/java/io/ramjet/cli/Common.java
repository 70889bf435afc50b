package io.ramjet.cli;

import io.ramjet.provider.url.RamjetUrl;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.time.Duration;

/** The options every command takes: where the NameServers are, how to print, how long to wait. */
public final class Common {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = {"-u", "--url"}, defaultValue = "${env:RAMJET_URL:-ramjet://127.0.0.1:9876}",
            description = "the NameServers, as a client's URL (default: $RAMJET_URL, else ${DEFAULT-VALUE})")
    String url;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    @Option(names = "--timeout", defaultValue = "5000", description = "milliseconds to wait for an answer (default: ${DEFAULT-VALUE})")
    long timeoutMillis;

    public Duration timeout() {
        return Duration.ofMillis(timeoutMillis);
    }

    public AdminClient admin() {
        return new AdminClient(RamjetUrl.parse(url).nameServers(), timeout());
    }

    public Output output() {
        return new Output(spec.commandLine().getOut(), json);
    }
}
