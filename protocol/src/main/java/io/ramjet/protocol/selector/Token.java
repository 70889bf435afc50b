package io.ramjet.protocol.selector;

/** One lexical token of a selector; {@code start} is its 0-based index in the text. */
record Token(Type type, String text, int start, Object value) {

    enum Type {
        IDENTIFIER, STRING, EXACT, APPROXIMATE,
        TRUE, FALSE, NULL, NOT, AND, OR, BETWEEN, LIKE, IN, IS, ESCAPE,
        EQ, NE, LT, LE, GT, GE, PLUS, MINUS, STAR, SLASH, LPAREN, RPAREN, COMMA, END
    }

    boolean is(Type t) {
        return type == t;
    }
}
