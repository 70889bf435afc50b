package io.ramjet.cli;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.url.RamjetUrl;
import jakarta.jms.JMSContext;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
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

    @Option(names = "--user", description = "the user to authenticate as, for a broker that refuses anonymous connections")
    String user;

    @Option(names = "--password", defaultValue = "${env:RAMJET_PASSWORD}",
            description = "the user's password (default: $RAMJET_PASSWORD)")
    String password;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    @Option(names = "--timeout", description = "milliseconds to wait for a connection or an answer, for every "
            + "command (default: the URL's " + RamjetConnectionFactory.REQUEST_TIMEOUT + ", else 5000)")
    Long timeoutMillis;

    /**
     * {@code --timeout}, else the URL's request timeout (the JMS client's default when it has
     * none): one timeout for admin and JMS commands alike.
     */
    public long timeoutMillis() {
        if (timeoutMillis != null) {
            if (timeoutMillis <= 0) {
                throw new ParameterException(spec.commandLine(), "--timeout must be positive: " + timeoutMillis);
            }
            return timeoutMillis;
        }
        return new RamjetConnectionFactory(url).getRequestTimeoutMillis();
    }

    public Duration timeout() {
        return Duration.ofMillis(timeoutMillis());
    }

    public AdminClient admin() {
        return new AdminClient(RamjetUrl.parse(url), timeout(), user, password);
    }

    /** A JMS context on the deployment, as {@link #user} when given, its requests bounded by {@link #timeout()}. */
    public JMSContext context(int sessionMode) {
        RamjetConnectionFactory factory = new RamjetConnectionFactory(url);
        factory.setRequestTimeoutMillis(timeoutMillis());
        return user == null ? factory.createContext(sessionMode) : factory.createContext(user, password, sessionMode);
    }

    public Output output() {
        return new Output(spec.commandLine().getOut(), json);
    }
}
