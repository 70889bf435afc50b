package io.ramjet.protocol.selector;

import io.ramjet.protocol.message.TagSignature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The tag signature masks of a selector, for the broker to skip messages without reading
 * them. Terms of the selector's top-level conjunction that can only be TRUE for a message
 * carrying a particular tag contribute: {@code prop = 'text'}, {@code prop = 57},
 * {@code prop = TRUE}, {@code JMSType = 'x'} (either side), and {@code prop IN ('a', 'b')},
 * which yields one alternative per value. The masks are the cross product of the terms'
 * alternatives: a message may match when its signature covers any one of them.
 *
 * <p>Identifiers that are not tagged (the other headers, JMS-prefixed properties) and
 * approximate literals ({@code d = 5.5}: no fraction is tagged) and integer literals beyond
 * 2^53 contribute nothing. Dropping a
 * term only weakens the filter, so the terms are taken fewest alternatives first and an IN term
 * that would raise the count past {@link #MAX_MASKS} is dropped.
 */
public final class SelectorAnalysis {

    public static final int MAX_MASKS = 64;

    private static final long[] NONE = new long[0];

    /**
     * Past 2^53 a double property can equal an integer literal it is not tagged with
     * ({@code 2^53 + 1} compares equal to the double {@code 2^53}), so such literals give no mask.
     */
    private static final long EXACT_IN_DOUBLE = 1L << 53;

    private final long[] masks;

    private SelectorAnalysis(long[] masks) {
        this.masks = masks;
    }

    public static SelectorAnalysis of(Selector selector, TagSignature signature) {
        if (selector.isEmpty()) {
            return new SelectorAnalysis(NONE);
        }
        List<List<String>> terms = new ArrayList<>();
        collect(selector.root(), terms);
        terms.sort(java.util.Comparator.comparingInt(List::size));
        long[] masks = {0L};
        boolean any = false;
        for (List<String> alternatives : terms) {
            if (masks.length * alternatives.size() > MAX_MASKS) {
                continue;
            }
            long[] next = new long[masks.length * alternatives.size()];
            int n = 0;
            for (long m : masks) {
                for (String tag : alternatives) {
                    next[n++] = m | signature.maskOf(tag);
                }
            }
            masks = Arrays.stream(next).distinct().toArray();
            any = true;
        }
        return new SelectorAnalysis(any ? masks : NONE);
    }

    private static void collect(Expr e, List<List<String>> terms) {
        if (e instanceof Expr.And and) {
            for (Expr operand : and.operands) {
                collect(operand, terms);
            }
        } else if (e instanceof Expr.Comparison c && c.op == Expr.CompareOp.EQ) {
            String tag = c.left instanceof Expr.Identifier id && c.right instanceof Expr.Literal lit ? tag(id, lit)
                    : c.right instanceof Expr.Identifier id2 && c.left instanceof Expr.Literal lit2 ? tag(id2, lit2)
                    : null;
            if (tag != null) {
                terms.add(List.of(tag));
            }
        } else if (e instanceof Expr.In in && !in.negated && isTagged(in.identifier.name)) {
            List<String> tags = new ArrayList<>();
            for (String value : in.values) {
                tags.add(TagSignature.stringTag(in.identifier.name, value));
            }
            tags.sort(null);
            terms.add(tags);
        }
    }

    private static boolean isTagged(String identifier) {
        return identifier.equals("JMSType") || !identifier.startsWith("JMS");
    }

    private static String tag(Expr.Identifier id, Expr.Literal literal) {
        if (!isTagged(id.name)) {
            return null;
        }
        Object v = literal.value;
        if (v instanceof String s) {
            return TagSignature.stringTag(id.name, s);
        }
        if ((v instanceof Long || v instanceof Integer) && Math.abs(((Number) v).longValue()) <= EXACT_IN_DOUBLE) {
            return TagSignature.integerTag(id.name, ((Number) v).longValue());
        }
        if (v instanceof Boolean b) {
            return TagSignature.booleanTag(id.name, b);
        }
        return null;
    }

    /** Whether the broker has a filter at all; without one it evaluates or sends everything. */
    public boolean hasMask() {
        return masks.length > 0;
    }

    /** The alternative masks; empty when the selector yields none. */
    public long[] masks() {
        return masks.clone();
    }

    /** Whether a message of this signature may match: no mask, or one mask it covers. */
    public boolean mayMatch(long signature) {
        return TagSignature.mayMatchAny(signature, masks);
    }
}
