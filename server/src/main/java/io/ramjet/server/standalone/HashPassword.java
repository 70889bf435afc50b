package io.ramjet.server.standalone;

import io.ramjet.server.broker.security.PasswordHash;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * {@code hash-password [user]}: reads a password from standard input (without echo on a
 * terminal) and prints its {@link PasswordHash}, as a whole users file line when a user is named.
 */
@Command(name = "hash-password", mixinStandardHelpOptions = true,
        description = "print a users file line (name = pbkdf2-sha256$...) for a password read from stdin")
final class HashPassword implements Callable<Integer> {

    @Parameters(arity = "0..1", description = "user name to put in front of the hash")
    String user;

    @Override
    public Integer call() throws IOException {
        char[] password = readPassword();
        if (password == null) {
            System.err.println("no password on standard input");
            return 1;
        }
        try {
            print(user, PasswordHash.of(password), System.out);
        } finally {
            Arrays.fill(password, '\0');
        }
        return 0;
    }

    static void print(String user, PasswordHash hash, PrintStream out) {
        out.println(user == null ? hash.encoded() : user + " = " + hash.encoded());
    }

    /** From the terminal without echo, else the first line of standard input; null when there is none. */
    private static char[] readPassword() throws IOException {
        Console console = System.console();
        if (console != null) {
            return console.readPassword("Password: ");
        }
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        return line == null ? null : line.toCharArray();
    }
}
