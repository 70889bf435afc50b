package io.ramjet.server.broker.security;

import javax.security.auth.x500.X500Principal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which user a verified client certificate stands for (mutual TLS), read once at start from a
 * file: one {@code user = subject} per line, the subject a distinguished name such as
 * {@code CN=alice,O=Example} (compared in its canonical form, so spacing and case of attribute
 * names do not matter); blank lines and lines starting with {@code #} are skipped. A malformed
 * line or a subject given twice refuses the whole file, naming the line. Immutable.
 */
public final class CertificateUsers {

    private final Map<String, String> userBySubject;

    private CertificateUsers(Map<String, String> userBySubject) {
        this.userBySubject = Map.copyOf(userBySubject);
    }

    /** No mapping: a certificate makes no one a user. */
    public static CertificateUsers none() {
        return new CertificateUsers(Map.of());
    }

    public static CertificateUsers load(Path file) throws IOException {
        return parse(Files.readAllLines(file), file.toString());
    }

    /** @param source what to call the lines in an error message */
    static CertificateUsers parse(List<String> lines, String source) {
        Map<String, String> users = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int equals = line.indexOf('=');
            String user = equals < 0 ? "" : line.substring(0, equals).trim();
            if (user.isEmpty()) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": expected user = subject");
            }
            String subject;
            try {
                subject = canonical(new X500Principal(line.substring(equals + 1).trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": not a subject name: "
                        + e.getMessage());
            }
            if (users.putIfAbsent(subject, user) != null) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": subject listed twice");
            }
        }
        return new CertificateUsers(users);
    }

    private static String canonical(X500Principal subject) {
        return subject.getName(X500Principal.CANONICAL);
    }

    /** The user a verified certificate of this subject stands for, if any. */
    public Optional<String> userOf(X500Principal subject) {
        return Optional.ofNullable(userBySubject.get(canonical(subject)));
    }

    public boolean isEmpty() {
        return userBySubject.isEmpty();
    }

    public int size() {
        return userBySubject.size();
    }
}
