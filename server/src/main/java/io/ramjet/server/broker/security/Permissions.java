package io.ramjet.server.broker.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which roles may do which {@link Operation} to which destinations, read from a permissions
 * file: one {@code operation pattern = role, role} per line, {@code #} comments, e.g.
 * {@code send orders.# = producers}. For an operation on a destination, the rules of that
 * operation whose {@link DestinationPattern} matches the destination's name are ranked by
 * specificity and the most specific decide (several equally specific ones add their roles);
 * no matching rule means no one may. The role {@code *} stands for every connection, anonymous
 * ones included. {@link #open()} (no file) allows everything. Immutable.
 */
public final class Permissions {

    /** The role every connection holds in a rule's eyes. */
    public static final String EVERYONE = "*";
    private static final String FORM = "operation pattern = role, role";

    private record Rule(Operation operation, DestinationPattern pattern, Set<String> roles) {
    }

    private final List<Rule> rules;
    private final boolean open;

    private Permissions(List<Rule> rules, boolean open) {
        this.rules = List.copyOf(rules);
        this.open = open;
    }

    /** No rules configured: every operation is allowed to every connection. */
    public static Permissions open() {
        return new Permissions(List.of(), true);
    }

    public static Permissions load(Path file) throws IOException {
        return parse(Files.readAllLines(file), file.toString());
    }

    /** @param source what to call the lines in an error message */
    static Permissions parse(List<String> lines, String source) {
        List<Rule> rules = new ArrayList<>();
        for (KeyValueLines.Line line : KeyValueLines.parse(lines, source, FORM)) {
            try {
                rules.add(rule(line.key(), line.value()));
            } catch (IllegalArgumentException e) {
                throw line.error(source, e.getMessage());
            }
        }
        return new Permissions(rules, false);
    }

    private static Rule rule(String key, String value) {
        String[] target = key.split("\\s+");
        if (target.length != 2) {
            throw new IllegalArgumentException("expected " + FORM);
        }
        Operation operation = Operation.ofConfigName(target[0]);
        DestinationPattern pattern = DestinationPattern.parse(target[1]);
        if (operation == Operation.ADMIN && !pattern.isMatchAll()) {
            throw new IllegalArgumentException("admin is broker-wide: its pattern is #, not " + pattern);
        }
        Set<String> roles = new HashSet<>(Arrays.asList(value.split("\\s*,\\s*")));
        roles.remove("");
        return new Rule(operation, pattern, roles);
    }

    /** Whether a connection holding {@code roles} may do {@code operation} to the destination named {@code name}. */
    public boolean allows(Set<String> roles, Operation operation, String name) {
        if (open) {
            return true;
        }
        long best = Long.MIN_VALUE;
        boolean allowed = false;
        for (Rule rule : rules) {
            if (rule.operation() != operation || !rule.pattern().matches(name)) {
                continue;
            }
            long specificity = rule.pattern().specificity();
            boolean grants = rule.roles().contains(EVERYONE) || roles.stream().anyMatch(rule.roles()::contains);
            if (specificity > best) {
                best = specificity;
                allowed = grants;
            } else if (specificity == best) {
                allowed |= grants;
            }
        }
        return allowed;
    }

    public boolean isOpen() {
        return open;
    }

    public int size() {
        return rules.size();
    }
}
