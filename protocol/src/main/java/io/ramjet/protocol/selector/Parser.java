package io.ramjet.protocol.selector;

import io.ramjet.protocol.selector.Expr.Kind;
import io.ramjet.protocol.selector.Token.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive descent over the selector grammar of Jakarta Messaging 3.1, 3.8.1, precedence from
 * loosest: OR, AND, NOT, then comparison / BETWEEN / IN / LIKE / IS NULL, then + -, then * /,
 * then unary signs.
 *
 * <p>Types that are known while parsing (literals, arithmetic, conditions, and the headers of
 * {@link Expr.Identifier#kind}) are checked, the optional semantic checking of 3.8.1.1: operands
 * of two different known types in any comparison ({@code TRUE = 0}, {@code 'a' <> 1},
 * {@code JMSType = 5}), a string or boolean in arithmetic or in an ordering comparison, a
 * numeric header in LIKE or IN, or a non-boolean where a condition belongs, is refused here
 * rather than being FALSE at every message. An identifier of a property has no type until a
 * message gives it one, so comparing it with anything parses.
 *
 * <p>Any text either parses or raises {@link SelectorSyntaxException}. Chains of AND, OR, NOT and
 * signs are read in loops, so only parentheses recurse, at most {@link #MAX_NESTING} deep; the
 * compiled tree, which evaluation walks recursively, is at most {@link #MAX_DEPTH} levels deep.
 * A stack that runs out all the same refuses the selector as too deep.
 */
final class Parser {

    /** Parentheses nested deeper than this are refused: each level is eight frames of the descent. */
    static final int MAX_NESTING = 128;
    /** A tree deeper than this is refused: a chain of {@code + - * /} adds a level per operator. */
    static final int MAX_DEPTH = 512;

    private final String text;
    private final List<Token> tokens;
    private int at;
    private int nesting;

    private Parser(String text, List<Token> tokens) {
        this.text = text;
        this.tokens = tokens;
    }

    static Expr parse(String text) throws SelectorSyntaxException {
        Parser parser = new Parser(text, Lexer.tokens(text));
        if (parser.peek().is(Type.END)) {
            throw parser.error(parser.peek(), "empty selector");
        }
        Expr e;
        try {
            e = parser.condition();
        } catch (StackOverflowError tooDeep) {
            // the limits keep a thread with an ordinary stack far from its end; one with a small
            // stack (or frames a deoptimization has grown) may still reach it: refused alike
            throw new SelectorSyntaxException(text, 0, "the selector is nested too deeply for this thread's stack");
        }
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
            throw error(at, "a " + name(e.kind()) + " expression is not a condition");
        }
    }

    /** Checks the depth of a node just built, whose text starts at {@code at}. */
    private Expr node(Expr e, Token at) throws SelectorSyntaxException {
        if (e.depth > MAX_DEPTH) {
            throw error(at, "the expression is nested more than " + MAX_DEPTH + " levels deep");
        }
        return e;
    }

    private Expr or() throws SelectorSyntaxException {
        Token start = peek();
        Expr first = and();
        if (!peek().is(Type.OR)) {
            return first;
        }
        requireCondition(first, start);
        List<Expr> operands = new ArrayList<>();
        operands.add(first);
        while (accept(Type.OR)) {
            Token right = peek();
            Expr r = and();
            requireCondition(r, right);
            operands.add(r);
        }
        return node(new Expr.Or(operands.toArray(new Expr[0])), start);
    }

    private Expr and() throws SelectorSyntaxException {
        Token start = peek();
        Expr first = not();
        if (!peek().is(Type.AND)) {
            return first;
        }
        requireCondition(first, start);
        List<Expr> operands = new ArrayList<>();
        operands.add(first);
        while (accept(Type.AND)) {
            Token right = peek();
            Expr r = not();
            requireCondition(r, right);
            operands.add(r);
        }
        return node(new Expr.And(operands.toArray(new Expr[0])), start);
    }

    /**
     * NOT NOT c is c for a condition, but not for an identifier holding a number, which NOT
     * makes unknown; so an even run of NOTs keeps two.
     */
    private Expr not() throws SelectorSyntaxException {
        Token start = peek();
        int nots = 0;
        while (accept(Type.NOT)) {
            nots++;
        }
        if (nots == 0) {
            return predicate();
        }
        Token operand = peek();
        Expr e = predicate();
        requireCondition(e, operand);
        Expr once = node(new Expr.Not(e), start);
        return nots % 2 == 1 ? once : node(new Expr.Not(once), start);
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
                } else if (left.kind() != Kind.ANY && right.kind() != Kind.ANY && left.kind() != right.kind()) {
                    throw error(op, "a " + name(left.kind()) + " cannot be compared with a " + name(right.kind())
                            + " (only like types compare)");
                }
                return node(new Expr.Comparison(cmp, left, right), start);
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

    private static String name(Kind kind) {
        switch (kind) {
            case BOOLEAN: return "boolean";
            case NUMERIC: return "numeric value";
            case STRING: return "string";
            default: return "value";
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
                return node(new Expr.Between(left, low, high, negated), start);
            }
            case IN: {
                Expr.Identifier id = stringIdentifier(left, start, "IN");
                expect(Type.LPAREN, "'(' after IN");
                Set<String> values = new HashSet<>();
                do {
                    values.add((String) expect(Type.STRING, "a string literal in the IN list").value());
                } while (accept(Type.COMMA));
                expect(Type.RPAREN, "',' or ')' in the IN list");
                return new Expr.In(id, Set.copyOf(values), negated);
            }
            case LIKE: {
                Expr.Identifier id = stringIdentifier(left, start, "LIKE");
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

    private Expr.Identifier stringIdentifier(Expr e, Token start, String construct) throws SelectorSyntaxException {
        Expr.Identifier id = identifier(e, start, construct);
        if (id.kind() != Kind.STRING && id.kind() != Kind.ANY) {
            throw error(start, id.name + " is a " + name(id.kind()) + ": " + construct + " applies to a string");
        }
        return id;
    }

    private void requireNumeric(Expr e, Token start, String construct) throws SelectorSyntaxException {
        if (e.kind() != Kind.NUMERIC && e.kind() != Kind.ANY) {
            throw error(start, "a " + name(e.kind()) + " cannot be used with " + construct);
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
            left = node(new Expr.Arithmetic(op.is(Type.PLUS) ? Expr.ArithmeticOp.ADD : Expr.ArithmeticOp.SUBTRACT,
                    left, right), start);
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
            left = node(new Expr.Arithmetic(op.is(Type.STAR) ? Expr.ArithmeticOp.MULTIPLY : Expr.ArithmeticOp.DIVIDE,
                    left, right), start);
        }
        return left;
    }

    /**
     * A run of signs before a primary. The sign next to a numeric literal is part of it, so
     * {@code -9223372036854775808} is a long; the others negate, and an even number of minus
     * signs before an operand that is not a literal keeps two negations, which make a value
     * that is not a number unknown as one does.
     */
    private Expr unary() throws SelectorSyntaxException {
        Token start = peek();
        int signs = 0, minus = 0;
        boolean lastIsMinus = false;
        while (peek().is(Type.PLUS) || peek().is(Type.MINUS)) {
            lastIsMinus = take().is(Type.MINUS);
            signs++;
            minus += lastIsMinus ? 1 : 0;
        }
        if (signs == 0) {
            return primary();
        }
        Token next = peek();
        if (next.is(Type.EXACT) || next.is(Type.APPROXIMATE)) {
            take();
            Object value;
            try {
                value = NumericLiterals.parse(next.text(), lastIsMinus);
            } catch (NumberFormatException e) {
                throw error(next, "bad numeric literal " + next.text());
            }
            int outer = minus - (lastIsMinus ? 1 : 0);
            if (outer % 2 == 1) {
                value = value instanceof Integer i ? (Object) (-i) : value instanceof Long l ? (Object) (-l)
                        : (Object) (-(Double) value);
            }
            return new Expr.Literal(value);
        }
        Expr operand = primary();
        requireNumeric(operand, next, "a sign");
        if (minus == 0) {
            return operand;
        }
        Expr once = node(new Expr.Negate(operand), start);
        return minus % 2 == 1 ? once : node(new Expr.Negate(once), start);
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
                if (++nesting > MAX_NESTING) {
                    throw error(t, "parentheses are nested more than " + MAX_NESTING + " deep");
                }
                Expr e = or();
                expect(Type.RPAREN, "')'");
                nesting--;
                return e;
            }
            case NULL:
                throw error(t, "NULL is only allowed in IS [NOT] NULL");
            default:
                throw error(t, "expected an identifier, a literal or '('" + describe(t));
        }
    }
}
