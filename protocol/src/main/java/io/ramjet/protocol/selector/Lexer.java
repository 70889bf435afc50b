package io.ramjet.protocol.selector;

import io.ramjet.protocol.selector.Token.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits a selector into tokens (Jakarta Messaging 3.1, 3.8.1.1): identifiers are Java
 * identifiers (by code point, so a letter outside the BMP is one), keywords are
 * case-insensitive in ASCII (the Turkish dotless i does not make {@code ın} the keyword IN),
 * strings are single-quoted with {@code ''} for a quote, exact numerics follow Java integer
 * literal syntax (ASCII digits; decimal, 0x hex, leading-0 octal, optional L) and approximate
 * numerics Java floating literal syntax. Signs are separate tokens;
 * the parser folds them into literals, so
 * {@code -9223372036854775808} is an exact literal although its magnitude alone is not a long.
 */
final class Lexer {

    private static final Map<String, Type> KEYWORDS = Map.ofEntries(
            Map.entry("TRUE", Type.TRUE), Map.entry("FALSE", Type.FALSE), Map.entry("NULL", Type.NULL),
            Map.entry("NOT", Type.NOT), Map.entry("AND", Type.AND), Map.entry("OR", Type.OR),
            Map.entry("BETWEEN", Type.BETWEEN), Map.entry("LIKE", Type.LIKE), Map.entry("IN", Type.IN),
            Map.entry("IS", Type.IS), Map.entry("ESCAPE", Type.ESCAPE));

    private final String text;
    private int at;

    private Lexer(String text) {
        this.text = text;
    }

    static List<Token> tokens(String text) throws SelectorSyntaxException {
        Lexer lexer = new Lexer(text);
        List<Token> tokens = new ArrayList<>();
        Token t;
        do {
            t = lexer.next();
            tokens.add(t);
        } while (!t.is(Type.END));
        return tokens;
    }

    private SelectorSyntaxException error(int index, String reason) {
        return new SelectorSyntaxException(text, index, reason);
    }

    private Token next() throws SelectorSyntaxException {
        while (at < text.length() && isWhitespace(text.charAt(at))) {
            at++;
        }
        int start = at;
        if (at >= text.length()) {
            return new Token(Type.END, "", start, null);
        }
        char c = text.charAt(at);
        if (Character.isJavaIdentifierStart(text.codePointAt(at))) {
            while (at < text.length() && Character.isJavaIdentifierPart(text.codePointAt(at))) {
                at += Character.charCount(text.codePointAt(at));
            }
            String word = text.substring(start, at);
            Type keyword = isAscii(word) ? KEYWORDS.get(word.toUpperCase(Locale.ROOT)) : null;
            return new Token(keyword != null ? keyword : Type.IDENTIFIER, word, start, null);
        }
        if (c == '\'') {
            return string(start);
        }
        if (isDigit(c) || c == '.' && at + 1 < text.length() && isDigit(text.charAt(at + 1))) {
            return number(start);
        }
        at++;
        switch (c) {
            case '=': return new Token(Type.EQ, "=", start, null);
            case '<':
                if (at < text.length() && text.charAt(at) == '>') {
                    at++;
                    return new Token(Type.NE, "<>", start, null);
                }
                if (at < text.length() && text.charAt(at) == '=') {
                    at++;
                    return new Token(Type.LE, "<=", start, null);
                }
                return new Token(Type.LT, "<", start, null);
            case '>':
                if (at < text.length() && text.charAt(at) == '=') {
                    at++;
                    return new Token(Type.GE, ">=", start, null);
                }
                return new Token(Type.GT, ">", start, null);
            case '+': return new Token(Type.PLUS, "+", start, null);
            case '-': return new Token(Type.MINUS, "-", start, null);
            case '*': return new Token(Type.STAR, "*", start, null);
            case '/': return new Token(Type.SLASH, "/", start, null);
            case '(': return new Token(Type.LPAREN, "(", start, null);
            case ')': return new Token(Type.RPAREN, ")", start, null);
            case ',': return new Token(Type.COMMA, ",", start, null);
            default: throw error(start, "unexpected character " + describe(c));
        }
    }

    /** Java's whitespace, as 3.8.1.1 says: space, tab, form feed and line terminators. */
    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isAscii(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (word.charAt(i) > 0x7F) {
                return false;
            }
        }
        return true;
    }

    /** The character as it can be printed: quoted, or as U+XXXX when it is a control char or a lone surrogate. */
    private static String describe(char c) {
        if (Character.isISOControl(c) || Character.isSurrogate(c) || Character.isSpaceChar(c)
                || !Character.isDefined(c)) {
            return String.format("U+%04X", (int) c);
        }
        return "'" + c + "'";
    }

    private Token string(int start) throws SelectorSyntaxException {
        StringBuilder value = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw error(start, "unterminated string literal");
            }
            char c = text.charAt(at++);
            if (c == '\'') {
                if (at < text.length() && text.charAt(at) == '\'') {
                    value.append('\'');
                    at++;
                } else {
                    break;
                }
            } else {
                value.append(c);
            }
        }
        return new Token(Type.STRING, text.substring(start, at), start, value.toString());
    }

    private Token number(int start) throws SelectorSyntaxException {
        while (at < text.length() && (isAsciiLetterOrDigit(text.charAt(at)) || text.charAt(at) == '.'
                || (text.charAt(at) == '+' || text.charAt(at) == '-') && isExponentSign(start))) {
            at++;
        }
        String literal = text.substring(start, at);
        try {
            Object value = NumericLiterals.parse(literal, false);
            return new Token(value instanceof Double ? Type.APPROXIMATE : Type.EXACT, literal, start, value);
        } catch (NumberFormatException e) {
            if (literal.matches("[0-9]+[lL]?")) {
                return new Token(Type.EXACT, literal, start, null);
            }
            throw error(start, "bad numeric literal " + literal);
        }
    }

    private static boolean isAsciiLetterOrDigit(char c) {
        return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /** A sign right after the 'e' of a decimal number is part of its exponent. */
    private boolean isExponentSign(int start) {
        char previous = text.charAt(at - 1);
        boolean hex = at - start > 1 && text.charAt(start) == '0'
                && (text.charAt(start + 1) == 'x' || text.charAt(start + 1) == 'X');
        return !hex && (previous == 'e' || previous == 'E');
    }
}
