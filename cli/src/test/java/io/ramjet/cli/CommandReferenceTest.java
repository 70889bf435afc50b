package io.ramjet.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command table of {@code docs/operations.md} is the command line's reference: every command
 * {@code ramjet-admin} runs has a row, every option of it (beyond the ones every command shares,
 * which the page states once) is named in its row, and every command a row names exists.
 */
class CommandReferenceTest {

    private static final Path PAGE = Path.of("..", "docs", "operations.md");
    private static final String SECTION = "## The command line";
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void theOperationsPageNamesEveryCommandAndOption() throws Exception {
        Map<String, CommandSpec> commands = new LinkedHashMap<>();
        collectRunnable(new CommandLine(new RamjetAdmin()), commands);
        assertTrue(commands.size() >= 25, "the commands were read: " + commands.keySet());
        Set<String> shared = sharedOptionNames();

        Map<String, StringBuilder> documented = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (String cell : firstCells()) {
            Matcher code = CODE.matcher(cell);
            while (code.find()) {
                String command = commandNamed(code.group(1), commands.keySet());
                if (command == null) {
                    unknown.add(code.group(1));
                } else {
                    documented.computeIfAbsent(command, c -> new StringBuilder()).append(' ').append(cell);
                }
            }
        }
        assertEquals(List.of(), unknown, "rows naming no command ramjet-admin has");

        List<String> missing = new ArrayList<>();
        commands.forEach((name, spec) -> {
            StringBuilder row = documented.get(name);
            if (row == null) {
                missing.add(name);
                return;
            }
            for (OptionSpec option : spec.options()) {
                if (option.usageHelp() || option.versionHelp() || shared.contains(option.longestName())) {
                    continue;
                }
                if (List.of(option.names()).stream().noneMatch(n -> mentions(row.toString(), n))) {
                    missing.add(name + " " + String.join("|", option.names()));
                }
            }
        });
        assertEquals(List.of(), missing, "commands and options without their row in " + PAGE);
    }

    /** Every command that does something when run: a leaf, or a command with subcommands that runs on its own too. */
    private static void collectRunnable(CommandLine command, Map<String, CommandSpec> into) {
        CommandSpec spec = command.getCommandSpec();
        String name = spec.qualifiedName(" ").replaceFirst("^ramjet-admin ?", "");
        Object user = spec.userObject();
        boolean runs = command.getSubcommands().isEmpty() || user instanceof Runnable
                || user instanceof java.util.concurrent.Callable;
        if (runs && !name.isEmpty() && !name.equals("help")) {
            into.put(name, spec);
        }
        command.getSubcommands().values().forEach(sub -> collectRunnable(sub, into));
    }

    /** The options of {@link Common}, which every command takes and the page describes once above the table. */
    private static Set<String> sharedOptionNames() {
        Set<String> names = new HashSet<>();
        CommandSpec.forAnnotatedObject(new Common()).options().forEach(o -> names.add(o.longestName()));
        return names;
    }

    /** The first cell of each row of the section's command table. */
    private static List<String> firstCells() throws Exception {
        List<String> lines = Files.readAllLines(PAGE);
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith(SECTION)).findFirst()
                .orElseThrow(() -> new AssertionError(PAGE + " has no section " + SECTION)));
        List<String> cells = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i);
            if (line.startsWith("| `")) {
                // a cell may hold an escaped bar (`-n\|--limit`)
                cells.add(line.substring(1).split("(?<!\\\\)\\|", 2)[0].replace("\\|", "|"));
            }
        }
        assertTrue(cells.size() >= 20, "the table's rows were read: " + cells);
        return cells;
    }

    /** The longest command name the code span starts with, as a whole word; null if none. */
    private static String commandNamed(String span, Set<String> commands) {
        String best = null;
        for (String command : commands) {
            if ((span.equals(command) || span.startsWith(command + " "))
                    && (best == null || command.length() > best.length())) {
                best = command;
            }
        }
        return best;
    }

    private static boolean mentions(String text, String option) {
        return Pattern.compile("(?<![\\w-])" + Pattern.quote(option) + "(?![\\w-])").matcher(text).find();
    }
}
