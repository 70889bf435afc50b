package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;

import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordHashTest {

    @Test
    void theTextFormIsSchemeIterationsSaltAndHash() {
        String[] parts = PasswordHash.of("secret".toCharArray()).encoded().split("\\$");
        assertEquals(4, parts.length);
        assertEquals("pbkdf2-sha256", parts[0]);
        assertEquals(PasswordHash.DEFAULT_ITERATIONS, Integer.parseInt(parts[1]));
        assertEquals(16, Base64.getDecoder().decode(parts[2]).length);
        assertEquals(32, Base64.getDecoder().decode(parts[3]).length);
    }

    @Test
    void theRightPasswordMatchesAfterARoundTripThroughText() {
        PasswordHash parsed = PasswordHash.parse(PasswordHash.of("secret".toCharArray()).encoded());
        assertTrue(parsed.matches("secret".toCharArray()));
    }

    @Test
    void aWrongPasswordDoesNotMatch() {
        PasswordHash hash = PasswordHash.of("secret".toCharArray());
        assertFalse(hash.matches("Secret".toCharArray()));
        assertFalse(hash.matches("".toCharArray()));
    }

    @Test
    void theSaltIsRandomSoTheSamePasswordHashesDifferently() {
        assertNotEquals(PasswordHash.of("secret".toCharArray()).encoded(), PasswordHash.of("secret".toCharArray()).encoded());
    }

    @Test
    void aTamperedHashOrSaltNoLongerMatches() {
        String[] parts = PasswordHash.of("secret".toCharArray()).encoded().split("\\$");
        String otherHash = PasswordHash.of("other".toCharArray()).encoded().split("\\$")[3];
        String otherSalt = PasswordHash.of("secret".toCharArray()).encoded().split("\\$")[2];
        assertFalse(PasswordHash.parse(String.join("$", parts[0], parts[1], parts[2], otherHash))
                .matches("secret".toCharArray()));
        assertFalse(PasswordHash.parse(String.join("$", parts[0], parts[1], otherSalt, parts[3]))
                .matches("secret".toCharArray()));
        assertFalse(PasswordHash.parse(String.join("$", parts[0], "100001", parts[2], parts[3]))
                .matches("secret".toCharArray()));
    }

    @Test
    void malformedOrWeakValuesAreRefused() {
        String[] parts = PasswordHash.of("secret".toCharArray()).encoded().split("\\$");
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse("secret"));
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(
                String.join("$", "md5", parts[1], parts[2], parts[3])));
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(
                String.join("$", parts[0], "1000", parts[2], parts[3])), "too few iterations");
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(
                String.join("$", parts[0], parts[1], "not base64!", parts[3])));
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(
                String.join("$", parts[0], parts[1], parts[2])));
    }

    @Test
    void toStringShowsNoHashBytes() {
        PasswordHash hash = PasswordHash.of("secret".toCharArray());
        String hashPart = hash.encoded().split("\\$")[3];
        assertFalse(hash.toString().contains(hashPart));
    }
}
