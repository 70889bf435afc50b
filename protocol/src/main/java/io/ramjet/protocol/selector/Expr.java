package io.ramjet.protocol.selector;

import java.util.Set;

/**
 * A node of a compiled selector. {@link #evaluate} returns a value (Boolean, a Number, String)
 * or null for NULL/unknown; conditions return Boolean.TRUE, Boolean.FALSE or null, so SQL's
 * three-valued logic costs no allocation. Only arithmetic allocates (its boxed result).
 */
abstract class Expr {

    /** What the parser knows of a node's type before evaluation. */
    enum Kind { BOOLEAN, NUMERIC, STRING, ANY }

    abstract Kind kind();

    abstract Object evaluate(PropertySource source);

    static Boolean bool(Object value) {
        return value instanceof Boolean b ? b : null;
    }

    static boolean isIntegral(Object n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
                || n instanceof ReusableLong;
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

        Identifier(String name) { this.name = name; }

        @Override Kind kind() { return Kind.ANY; }
        @Override Object evaluate(PropertySource source) { return source.get(name); }
    }

    static final class Negate extends Expr {
        private final Expr operand;

        Negate(Expr operand) { this.operand = operand; }

        @Override Kind kind() { return Kind.NUMERIC; }

        @Override
        Object evaluate(PropertySource source) {
            Object v = operand.evaluate(source);
            if (!(v instanceof Number n)) {
                return null;
            }
            return isIntegral(n) ? (Object) (-n.longValue()) : (Object) (-n.doubleValue());
        }
    }

    enum ArithmeticOp { ADD, SUBTRACT, MULTIPLY, DIVIDE }

    static final class Arithmetic extends Expr {
        private final ArithmeticOp op;
        private final Expr left, right;

        Arithmetic(ArithmeticOp op, Expr left, Expr right) {
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
            if (isIntegral(a) && isIntegral(b)) {
                long x = a.longValue(), y = b.longValue();
                switch (op) {
                    case ADD: return x + y;
                    case SUBTRACT: return x - y;
                    case MULTIPLY: return x * y;
                    default: return y == 0 ? null : (Object) (x / y);
                }
            }
            double x = a.doubleValue(), y = b.doubleValue();
            switch (op) {
                case ADD: return x + y;
                case SUBTRACT: return x - y;
                case MULTIPLY: return x * y;
                default: return x / y;
            }
        }
    }

    enum CompareOp { EQ, NE, LT, LE, GT, GE }

    static final class Comparison extends Expr {
        final CompareOp op;
        final Expr left, right;

        Comparison(CompareOp op, Expr left, Expr right) {
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            return compare(op, left.evaluate(source), right.evaluate(source));
        }

        /** Like types compare; unlike ones are FALSE; strings and booleans only for = and <>. */
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
                double l = x.doubleValue(), r = y.doubleValue();
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
            this.value = value;
            this.low = low;
            this.high = high;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            Object v = value.evaluate(source);
            Boolean result = And.and(Comparison.compare(CompareOp.LE, low.evaluate(source), v),
                    Comparison.compare(CompareOp.LE, v, high.evaluate(source)));
            return negated ? Not.not(result) : result;
        }
    }

    static final class In extends Expr {
        final Identifier identifier;
        final Set<String> values;
        final boolean negated;

        In(Identifier identifier, Set<String> values, boolean negated) {
            this.identifier = identifier;
            this.values = values;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            Object v = identifier.evaluate(source);
            if (v == null) {
                return null;
            }
            return of(v instanceof String s && values.contains(s) != negated);
        }
    }

    static final class Like extends Expr {
        private final Identifier identifier;
        private final LikePattern pattern;
        private final boolean negated;

        Like(Identifier identifier, LikePattern pattern, boolean negated) {
            this.identifier = identifier;
            this.pattern = pattern;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            Object v = identifier.evaluate(source);
            if (v == null) {
                return null;
            }
            return of(v instanceof String s && pattern.matches(s) != negated);
        }
    }

    static final class IsNull extends Expr {
        private final Identifier identifier;
        private final boolean negated;

        IsNull(Identifier identifier, boolean negated) {
            this.identifier = identifier;
            this.negated = negated;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            return of((identifier.evaluate(source) == null) != negated);
        }
    }

    static final class And extends Expr {
        final Expr left, right;

        And(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            Boolean l = bool(left.evaluate(source));
            if (Boolean.FALSE.equals(l)) {
                return Boolean.FALSE;
            }
            return and(l, bool(right.evaluate(source)));
        }

        static Boolean and(Boolean a, Boolean b) {
            if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
                return Boolean.FALSE;
            }
            return a == null || b == null ? null : Boolean.TRUE;
        }
    }

    static final class Or extends Expr {
        private final Expr left, right;

        Or(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        @Override Kind kind() { return Kind.BOOLEAN; }

        @Override
        Object evaluate(PropertySource source) {
            Boolean l = bool(left.evaluate(source));
            if (Boolean.TRUE.equals(l)) {
                return Boolean.TRUE;
            }
            Boolean r = bool(right.evaluate(source));
            if (Boolean.TRUE.equals(r)) {
                return Boolean.TRUE;
            }
            return l == null || r == null ? null : Boolean.FALSE;
        }
    }

    static final class Not extends Expr {
        private final Expr operand;

        Not(Expr operand) { this.operand = operand; }

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
