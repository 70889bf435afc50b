package io.ramjet.protocol.selector;

import io.ramjet.protocol.selector.Expr.Kind;
import io.ramjet.protocol.selector.Token.Type;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive descent over the selector grammar of Jakarta Messaging 3.1, 3.8.1, precedence from
 * loosest: OR, AND, NOT, then comparison / BETWEEN / IN / LIKE / IS NULL, then + -, then * /,
 * then unary signs. Types that are known while parsing (literals, arithmetic, conditions) are
 * checked: a string or boolean in arithmetic or in an ordering comparison, or a non-boolean
 * where a condition belongs, is refused here rather than being FALSE at every message.
 */
final class Parser {

    private final String text;
    private final List<Token> tokens;
    private int at;

    private Parser(String text, List<Token> tokens) {
        this.text = text;
        this.tokens = tokens;
    }

    static Expr parse(String text) throws SelectorSyntaxException {
        Parser parser = new Parser(text, Lexer.tokens(text));
        if (parser.peek().is(Type.END)) {
            throw parser.error(parser.peek(), "empty selector");
        }
        Expr e = parser.condition();
        if (!parser.peek().is(Type.END)) {
            throw parser.error(parser.peek(), "unexpected '" + parser.peek().text() + "' after a complete expression");
        }
        return e;
    }

    private Token peek() {
        return tokens.get(at);
    }

    private Token take() {
        return tokens.get(at++);
    }

    private boolean accept(Type type) {
        if (peek().is(type)) {
            at++;
            return true;
        }
        return false;
    }

    private Token expect(Type type, String what) throws SelectorSyntaxException {
        if (!peek().is(type)) {
            throw error(peek(), "expected " + what + describe(peek()));
        }
        return take();
    }

    private static String describe(Token t) {
        return t.is(Type.END) ? " at the end of the selector" : " but found '" + t.text() + "'";
    }

    private SelectorSyntaxException error(Token t, String reason) {
        return new SelectorSyntaxException(text, t.start(), reason);
    }

    private Expr condition() throws SelectorSyntaxException {
        Token start = peek();
        Expr e = or();
        requireCondition(e, start);
        return e;
    }

    private void requireCondition(Expr e, Token at) throws SelectorSyntaxException {
        if (e.kind() != Kind.BOOLEAN && e.kind() != Kind.ANY) {
            throw error(at, "a " + e.kind().name().toLowerCase() + " expression is not a condition");
        }
    }

    private Expr or() throws SelectorSyntaxException {
        Token start = peek();
        Expr left = and();
        while (peek().is(Type.OR)) {
            requireCondition(left, start);
            take();
            Token right = peek();
            Expr r = and();
            requireCondition(r, right);
            left = new Expr.Or(left, r);
        }
        return left;
    }

    private Expr and() throws SelectorSyntaxException {
        Token start = peek();
        Expr left = not();
        while (peek().is(Type.AND)) {
            requireCondition(left, start);
            take();
            Token right = peek();
            Expr r = not();
            requireCondition(r, right);
            left = new Expr.And(left, r);
        }
        return left;
    }

    private Expr not() throws SelectorSyntaxException {
        if (accept(Type.NOT)) {
            Token operand = peek();
            Expr e = not();
            requireCondition(e, operand);
            return new Expr.Not(e);
        }
        return predicate();
    }

    private Expr predicate() throws SelectorSyntaxException {
        Token start = peek();
        Expr left = additive();
        Token op = peek();
        switch (op.type()) {
            case EQ, NE, LT, LE, GT, GE: {
                take();
                Token rightStart = peek();
                Expr right = additive();
                Expr.CompareOp cmp = Expr.CompareOp.valueOf(op.type().name());
                if (cmp != Expr.CompareOp.EQ && cmp != Expr.CompareOp.NE) {
                    requireNumeric(left, start, op.text());
                    requireNumeric(right, rightStart, op.text());
                }
                return new Expr.Comparison(cmp, left, right);
            }
            case NOT: {
                take();
                Token keyword = peek();
                if (keyword.is(Type.BETWEEN) || keyword.is(Type.IN) || keyword.is(Type.LIKE)) {
                    return postfix(left, start, true);
                }
                throw error(keyword, "expected BETWEEN, IN or LIKE after NOT" + describe(keyword));
            }
            case BETWEEN, IN, LIKE, IS:
                return postfix(left, start, false);
            default:
                return left;
        }
    }

    private Expr postfix(Expr left, Token start, boolean negated) throws SelectorSyntaxException {
        Token keyword = take();
        switch (keyword.type()) {
            case BETWEEN: {
                requireNumeric(left, start, "BETWEEN");
                Token lowStart = peek();
                Expr low = additive();
                requireNumeric(low, lowStart, "BETWEEN");
                expect(Type.AND, "AND of BETWEEN");
                Token highStart = peek();
                Expr high = additive();
                requireNumeric(high, highStart, "BETWEEN");
                return new Expr.Between(left, low, high, negated);
            }
            case IN: {
                Expr.Identifier id = identifier(left, start, "IN");
                expect(Type.LPAREN, "'(' after IN");
                Set<String> values = new HashSet<>();
                do {
                    values.add((String) expect(Type.STRING, "a string literal in the IN list").value());
                } while (accept(Type.COMMA));
                expect(Type.RPAREN, "',' or ')' in the IN list");
                return new Expr.In(id, Set.copyOf(values), negated);
            }
            case LIKE: {
                Expr.Identifier id = identifier(left, start, "LIKE");
                Token pattern = expect(Type.STRING, "a string literal pattern after LIKE");
                int escape = -1;
                if (accept(Type.ESCAPE)) {
                    Token e = expect(Type.STRING, "a string literal after ESCAPE");
                    String s = (String) e.value();
                    if (s.length() != 1) {
                        throw error(e, "the ESCAPE string must be one character");
                    }
                    escape = s.charAt(0);
                }
                LikePattern compiled = LikePattern.compile((String) pattern.value(), escape);
                if (compiled == null) {
                    throw error(pattern, "the LIKE pattern ends with its escape character");
                }
                return new Expr.Like(id, compiled, negated);
            }
            default: {
                Expr.Identifier id = identifier(left, start, "IS NULL");
                boolean not = accept(Type.NOT);
                expect(Type.NULL, "NULL after IS" + (not ? " NOT" : ""));
                return new Expr.IsNull(id, not);
            }
        }
    }

    private Expr.Identifier identifier(Expr e, Token start, String construct) throws SelectorSyntaxException {
        if (e instanceof Expr.Identifier id) {
            return id;
        }
        throw error(start, construct + " applies to an identifier only");
    }

    private void requireNumeric(Expr e, Token start, String construct) throws SelectorSyntaxException {
        if (e.kind() != Kind.NUMERIC && e.kind() != Kind.ANY) {
            throw error(start, "a " + e.kind().name().toLowerCase() + " operand cannot be used with " + construct);
        }
    }

    private Expr additive() throws SelectorSyntaxException {
        Token start = peek();
        Expr left = multiplicative();
        while (peek().is(Type.PLUS) || peek().is(Type.MINUS)) {
            Token op = take();
            requireNumeric(left, start, op.text());
            Token rightStart = peek();
            Expr right = multiplicative();
            requireNumeric(right, rightStart, op.text());
            left = new Expr.Arithmetic(op.is(Type.PLUS) ? Expr.ArithmeticOp.ADD : Expr.ArithmeticOp.SUBTRACT, left, right);
        }
        return left;
    }

    private Expr multiplicative() throws SelectorSyntaxException {
        Token start = peek();
        Expr left = unary();
        while (peek().is(Type.STAR) || peek().is(Type.SLASH)) {
            Token op = take();
            requireNumeric(left, start, op.text());
            Token rightStart = peek();
            Expr right = unary();
            requireNumeric(right, rightStart, op.text());
            left = new Expr.Arithmetic(op.is(Type.STAR) ? Expr.ArithmeticOp.MULTIPLY : Expr.ArithmeticOp.DIVIDE, left, right);
        }
        return left;
    }

    private Expr unary() throws SelectorSyntaxException {
        Token sign = peek();
        if (sign.is(Type.PLUS) || sign.is(Type.MINUS)) {
            take();
            Token next = peek();
            boolean minus = sign.is(Type.MINUS);
            if (next.is(Type.EXACT) || next.is(Type.APPROXIMATE)) {
                take();
                try {
                    return new Expr.Literal(NumericLiterals.parse(next.text(), minus));
                } catch (NumberFormatException e) {
                    throw error(next, "bad numeric literal " + next.text());
                }
            }
            Expr operand = unary();
            requireNumeric(operand, next, "a sign");
            return minus ? new Expr.Negate(operand) : operand;
        }
        return primary();
    }

    private Expr primary() throws SelectorSyntaxException {
        Token t = peek();
        switch (t.type()) {
            case EXACT:
                take();
                if (t.value() == null) {
                    throw error(t, "bad numeric literal " + t.text());
                }
                return new Expr.Literal(t.value());
            case APPROXIMATE, STRING:
                take();
                return new Expr.Literal(t.value());
            case TRUE:
                take();
                return new Expr.Literal(Boolean.TRUE);
            case FALSE:
                take();
                return new Expr.Literal(Boolean.FALSE);
            case IDENTIFIER:
                take();
                return new Expr.Identifier(t.text());
            case LPAREN: {
                take();
                Expr e = or();
                expect(Type.RPAREN, "')'");
                return e;
            }
            case NULL:
                throw error(t, "NULL is only allowed in IS [NOT] NULL");
            default:
                throw error(t, "expected an identifier, a literal or '('" + describe(t));
        }
    }
}
