package io.ramjet.protocol.selector;

import java.util.Set;

/**
 * A node of a compiled selector. {@link #evaluate} returns a value (Boolean, a Number, String)
 * or null for NULL/unknown; conditions return Boolean.TRUE, Boolean.FALSE or null, so SQL's
 * three-valued logic costs no allocation. Only arithmetic allocates (its boxed result).
 * Evaluation recurses once per level of the tree, so the parser bounds {@link #depth}.
 */
abstract class Expr {

    /** What the parser knows of a node's type before evaluation. */
    enum Kind { BOOLEAN, NUMERIC, STRING, ANY }

    /** Levels of the tree below and including this node: 1 for a leaf. */
    final int depth;

    Expr(Expr... children) {
        int deepest = 0;
        for (Expr child : children) {
            deepest = Math.max(deepest, child.depth);
        }
        depth = deepest + 1;
    }

    abstract Kind kind();

    abstract Object evaluate(PropertySource source);

    static Boolean bool(Object value) {
        return value instanceof Boolean b ? b : null;
    }

    static boolean isIntegral(Object n) {
        return isInt(n) || n instanceof Long || n instanceof ReusableLong;
    }

    /** Whether Java's binary numeric promotion (JLS 5.6.2) gives int: a byte, short or int. */
    static boolean isInt(Object n) {
        return n instanceof Integer || n instanceof Short || n instanceof Byte || n instanceof ReusableInt;
    }

    static boolean isFloat(Object n) {
        return n instanceof Float || n instanceof ReusableFloat;
    }

    /**
     * Whether Java's binary numeric promotion (JLS 5.6.2) gives float: one operand a float and
     * the other a float or an exact value (an int or a long is converted to float, rounding as
     * Java does); a double on either side gives double.
     */
    static boolean promotesToFloat(Number a, Number b) {
        return (isFloat(a) || isFloat(b)) && (isFloat(a) || isIntegral(a)) && (isFloat(b) || isIntegral(b));
    }

    static Boolean of(boolean b) {
        return b ? Boolean.TRUE : Boolean.FALSE;
    }

    static final class Literal extends Expr {
        final Object value;
        private final Kind kind;

        Literal(Object value) {
            this.value = value;
            this.kind = value instanceof Boolean ? Kind.BOOLEAN : value instanceof String ? Kind.STRING : Kind.NUMERIC;
        }

        @Override Kind kind() { return kind; }
        @Override Object evaluate(PropertySource source) { return value; }
    }

    static final class Identifier extends Expr {
        final String name;
        private final Kind kind;

        Identifier(String name) {
            this.name = name;
            this.kind = kindOf(name);
        }

        /**
         * The headers a selector may name have a type known before any message (3.8.1.1, and
         * 3.8.1.3 for JMSDeliveryMode as a string); properties and the other JMS names may hold
         * anything, so their type is known only at evaluation.
         */
        private static Kind kindOf(String name) {
            switch (name) {
                case "JMSPriority", "JMSTimestamp": return Kind.NUMERIC;
                case "JMSMessageID", "JMSCorrelationID", "JMSType", "JMSDeliveryMode": return Kind.STRING;
                default: return Kind.ANY;
            }
        }

        @Override Kind kind() { return kind; }
        @Override Object evaluate(PropertySource source) { return source.get(name); }
    }

    static final class Negate extends Expr {
        private final Expr operand;

        Negate(Expr operand) {
            super(operand);
            this.operand = operand;
        }

        @Override Kind kind() { return Kind.NUMERIC; }

        @Override
        Object evaluate(PropertySource source) {
            Object v = operand.evaluate(source);
            if (!(v instanceof Number n)) {
                return null;
            }
            if (isInt(n)) {
                return -n.intValue();
            }
            if (isFloat(n)) {
                return -n.floatValue();
            }
            return isIntegral(n) ? (Object) (-n.longValue()) : (Object) (-n.doubleValue());
        }
    }

    enum ArithmeticOp { ADD, SUBTRACT, MULTIPLY, DIVIDE }

    /**
     * Arithmetic with Java's numeric promotion, as 3.8.1.1 requires: two ints (bytes, shorts,
     * exact literals that fit) give an int, which overflows as Java's does; a long makes it
     * long; a float with a float, an int or a long makes it float, rounding as Java's does; a
     * double (every approximate literal is one) makes it double. Integer division by zero is
     * unknown; a value that is not a number makes the result unknown.
     */
    static final class Arithmetic extends Expr {
        private final ArithmeticOp op;
        private final Expr left, right;

        Arithmetic(ArithmeticOp op, Expr left, Expr right) {
            super(left, right);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override Kind kind() { return Kind.NUMERIC; }

        @Override
        Object evaluate(PropertySource source) {
            if (!(left.evaluate(source) instanceof Number a) || !(right.evaluate(source) instanceof Number b)) {
                return null;
            }
            if (isInt(a) && isInt(b)) {
                int x = a.intValue(), y = b.intValue();
                switch (op) {
                    case ADD: return x + y;
                    case SUBTRACT: return x - y;
                    case MULTIPLY: return x * y;
                    default: return y == 0 ? null : (Object) (x / y);
                }
            }
            if (isIntegral(a) && isIntegral(b)) {
                long x = a.longValue(), y = b.longValue();
                switch (op) {
                    case ADD: return x + y;
                    case SUBTRACT: return x - y;
                    case MULTIPLY: return x * y;
                    default: return y == 0 ? null : (Object) (x / y);
                }
            }
            // Two floats' sum, difference, product or quotient computed in double and rounded to
            // float is the float operation's result: double carries more than twice float's precision.
            boolean toFloat = promotesToFloat(a, b);
            double x = toFloat ? a.floatValue() : a.doubleValue();
            double y = toFloat ? b.floatValue() : b.doubleValue();
            double result;
            switch (op) {
                case ADD: result = x + y; break;
                case SUBTRACT: result = x - y; break;
                case MULTIPLY: result = x * y; break;
                default: result = x / y;
            }
            return toFloat ? (Object) (float) result : (Object) result;
        }
    }

    enum CompareOp { EQ, NE, LT, LE, GT, GE }

    static final class Comparison extends Expr {
        final CompareOp op;
        final Expr left, right;

        Comparison(CompareOp op, Expr left, Expr right) {
            super(left, right);
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            return compare(op, left.evaluate(source), right.evaluate(source));
        }

        /**
         * 3.8.1.1: like types compare; numbers of any two types compare after Java's numeric
         * promotion (long, float or double); unlike types are FALSE; strings and booleans
         * compare only with = and <>; NULL on either side is unknown.
         */
        static Boolean compare(CompareOp op, Object a, Object b) {
            if (a == null || b == null) {
                return null;
            }
            if (a instanceof Number x && b instanceof Number y) {
                if (isIntegral(x) && isIntegral(y)) {
                    long l = x.longValue(), r = y.longValue();
                    switch (op) {
                        case EQ: return of(l == r);
                        case NE: return of(l != r);
                        case LT: return of(l < r);
                        case LE: return of(l <= r);
                        case GT: return of(l > r);
                        default: return of(l >= r);
                    }
                }
                // promoted to float, both are then widened to double exactly: the float comparison's result
                boolean toFloat = promotesToFloat(x, y);
                double l = toFloat ? x.floatValue() : x.doubleValue();
                double r = toFloat ? y.floatValue() : y.doubleValue();
                switch (op) {
                    case EQ: return of(l == r);
                    case NE: return of(l != r);
                    case LT: return of(l < r);
                    case LE: return of(l <= r);
                    case GT: return of(l > r);
                    default: return of(l >= r);
                }
            }
            boolean likeTypes = a instanceof String && b instanceof String || a instanceof Boolean && b instanceof Boolean;
            if (!likeTypes || op != CompareOp.EQ && op != CompareOp.NE) {
                return Boolean.FALSE;
            }
            return of(a.equals(b) == (op == CompareOp.EQ));
        }
    }

    static final class Between extends Expr {
        private final Expr value, low, high;
        private final boolean negated;

        Between(Expr value, Expr low, Expr high, boolean negated) {
            super(value, low, high);
            this.value = value;
            this.low = low;
            this.high = high;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        /**
         * As 3.8.1.1 spells them out: {@code v BETWEEN l AND h} is {@code v >= l AND v <= h},
         * {@code v NOT BETWEEN l AND h} is {@code v < l OR v > h}, so neither is TRUE when a
         * bound is of another type (rather than NOT BETWEEN being NOT of a FALSE BETWEEN).
         */
        @Override
        Object evaluate(PropertySource source) {
            Object v = value.evaluate(source);
            if (negated) {
                return Or.or(Comparison.compare(CompareOp.LT, v, low.evaluate(source)),
                        Comparison.compare(CompareOp.GT, v, high.evaluate(source)));
            }
            return And.and(Comparison.compare(CompareOp.GE, v, low.evaluate(source)),
                    Comparison.compare(CompareOp.LE, v, high.evaluate(source)));
        }
    }

    static final class In extends Expr {
        final Identifier identifier;
        final Set<String> values;
        final boolean negated;

        In(Identifier identifier, Set<String> values, boolean negated) {
            super(identifier);
            this.identifier = identifier;
            this.values = values;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        /**
         * 3.8.1.1: {@code [NOT] IN} is a comparison operator for an identifier with a String
         * value. NULL gives unknown; a value of another type is a comparison of unlike types,
         * so the operation, {@code NOT IN} as much as {@code IN}, is FALSE (a NOT applied to
         * it from outside still makes that TRUE).
         */
        @Override
        Object evaluate(PropertySource source) {
            Object v = identifier.evaluate(source);
            if (v == null) {
                return null;
            }
            if (!(v instanceof String s)) {
                return Boolean.FALSE;
            }
            return of(values.contains(s) != negated);
        }
    }

    static final class Like extends Expr {
        private final Identifier identifier;
        private final LikePattern pattern;
        private final boolean negated;

        Like(Identifier identifier, LikePattern pattern, boolean negated) {
            super(identifier);
            this.identifier = identifier;
            this.pattern = pattern;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        /**
         * 3.8.1.1: {@code [NOT] LIKE} is a comparison operator for an identifier with a String
         * value. NULL gives unknown; a value of another type is a comparison of unlike types,
         * so {@code NOT LIKE} as much as {@code LIKE} is FALSE. For a string NOT LIKE is NOT of
         * LIKE, as in SQL92.
         */
        @Override
        Object evaluate(PropertySource source) {
            Object v = identifier.evaluate(source);
            if (v == null) {
                return null;
            }
            if (!(v instanceof String s)) {
                return Boolean.FALSE;
            }
            return of(pattern.matches(s) != negated);
        }
    }

    static final class IsNull extends Expr {
        private final Identifier identifier;
        private final boolean negated;

        IsNull(Identifier identifier, boolean negated) {
            super(identifier);
            this.identifier = identifier;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            return of((identifier.evaluate(source) == null) != negated);
        }
    }

    /** A conjunction of any number of conditions, so a long chain of ANDs is one level deep. */
    static final class And extends Expr {
        final Expr[] operands;

        And(Expr... operands) {
            super(operands);
            this.operands = operands;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            Boolean result = Boolean.TRUE;
            for (Expr operand : operands) {
                result = and(result, bool(operand.evaluate(source)));
                if (result == Boolean.FALSE) {
                    return result;
                }
            }
            return result;
        }

        static Boolean and(Boolean a, Boolean b) {
            if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
                return Boolean.FALSE;
            }
            return a == null || b == null ? null : Boolean.TRUE;
        }
    }

    /** A disjunction of any number of conditions, so a long chain of ORs is one level deep. */
    static final class Or extends Expr {
        private final Expr[] operands;

        Or(Expr... operands) {
            super(operands);
            this.operands = operands;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            Boolean result = Boolean.FALSE;
            for (Expr operand : operands) {
                result = or(result, bool(operand.evaluate(source)));
                if (result == Boolean.TRUE) {
                    return result;
                }
            }
            return result;
        }

        static Boolean or(Boolean a, Boolean b) {
            if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
                return Boolean.TRUE;
            }
            return a == null || b == null ? null : Boolean.FALSE;
        }
    }

    static final class Not extends Expr {
        private final Expr operand;

        Not(Expr operand) {
            super(operand);
            this.operand = operand;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            return not(bool(operand.evaluate(source)));
        }

        static Boolean not(Boolean b) {
            return b == null ? null : of(!b);
        }
    }
}
