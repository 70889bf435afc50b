package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UsersTest {

    private static final String ALICE = "alice = " + PasswordHash.of("wonderland".toCharArray()).encoded();

    @Test
    void aKnownUserWithTheRightPasswordIsVerified() {
        Users users = Users.parse(List.of("# users", "", ALICE), "users");
        assertEquals(1, users.size());
        assertTrue(users.verify("alice", "wonderland".toCharArray()));
    }

    @Test
    void aWrongPasswordIsRefused() {
        assertFalse(Users.parse(List.of(ALICE), "users").verify("alice", "looking-glass".toCharArray()));
    }

    @Test
    void anUnknownUserIsRefusedEvenWithAnotherUsersPassword() {
        assertFalse(Users.parse(List.of(ALICE), "users").verify("bob", "wonderland".toCharArray()));
        assertFalse(Users.none().verify("alice", "wonderland".toCharArray()));
    }

    @Test
    void aTamperedLineRefusesTheFileNamingTheLine() {
        String tampered = ALICE.substring(0, ALICE.lastIndexOf('$'));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Users.parse(List.of("# users", tampered), "users"));
        assertTrue(e.getMessage().startsWith("users line 2:"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Users.parse(List.of("alice"), "users"));
        assertThrows(IllegalArgumentException.class, () -> Users.parse(List.of(" = " + ALICE.split(" = ")[1]), "users"));
    }

    @Test
    void aUserListedTwiceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Users.parse(List.of(ALICE, ALICE), "users"));
    }

    /**
     * The fastest of a few calls each: preemption on a loaded machine only ever adds time, so the
     * minimum is the cost of the hashing itself, which must not tell a known user from an unknown one.
     */
    @Test
    void anUnknownUserTakesAboutAsLongAsAKnownOne() {
        Users users = Users.parse(List.of(ALICE), "users");
        users.verify("alice", "warm-up".toCharArray());
        long known = fastest(() -> users.verify("alice", "wrong".toCharArray()));
        long unknown = fastest(() -> users.verify("nobody", "wrong".toCharArray()));
        assertTrue(unknown > known / 3, "unknown " + unknown + " ns, known " + known + " ns");
    }

    private static long fastest(Runnable r) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            r.run();
            best = Math.min(best, System.nanoTime() - start);
        }
        return best;
    }
}
