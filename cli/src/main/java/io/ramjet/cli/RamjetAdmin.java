package io.ramjet.cli;

import io.ramjet.protocol.RamjetVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * {@code ramjet-admin}: see, manage and try a running Ramjet deployment from a shell. Exit codes:
 * 0 done, 1 a check failed or a broker refused, 2 a usage error.
 */
@Command(name = "ramjet-admin", mixinStandardHelpOptions = true, versionProvider = RamjetAdmin.Version.class,
        description = "Operate a running Ramjet deployment: destinations, subscriptions, consumers, messages, health.",
        subcommands = {QueueCommand.class, TopicCommand.class, SubscriptionCommand.class, ConsumerCommand.class, ProducerCommand.class,
                BrowseCommand.class, BrokerCommand.class, TxCommand.class, ParkedCommand.class, CheckCommand.class,
                PerfCommand.class, NameServerCommand.class, CommandLine.HelpCommand.class})
public final class RamjetAdmin {

    /** What {@code -V} prints: the build's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"Ramjet admin " + RamjetVersion.VERSION};
        }
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs one command line, printing to {@code out} and {@code err}; answers the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return new CommandLine(new RamjetAdmin())
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler((e, commandLine, parsed) -> {
                    commandLine.getErr().println("ramjet-admin: " + (e instanceof AdminException ? e.getMessage()
                            : e.toString()));
                    return 1;
                })
                .execute(args);
    }
}
