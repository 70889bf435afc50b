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
 * which yields one alternative per value; an integer literal past 2^24 yields two, itself and
 * the whole number it rounds to as a float, the tag of a float property it equals. The masks are the cross product of the terms'
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
            List<String> tags = c.left instanceof Expr.Identifier id && c.right instanceof Expr.Literal lit ? tags(id, lit)
                    : c.right instanceof Expr.Identifier id2 && c.left instanceof Expr.Literal lit2 ? tags(id2, lit2)
                    : null;
            if (tags != null) {
                terms.add(tags);
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

    /** The tags a message must carry one of for {@code id = literal} to be TRUE; null for no filter. */
    private static List<String> tags(Expr.Identifier id, Expr.Literal literal) {
        if (!isTagged(id.name)) {
            return null;
        }
        Object v = literal.value;
        if (v instanceof String s) {
            return List.of(TagSignature.stringTag(id.name, s));
        }
        if ((v instanceof Long || v instanceof Integer) && Math.abs(((Number) v).longValue()) <= EXACT_IN_DOUBLE) {
            long exact = ((Number) v).longValue();
            // a float property equals the literal when it equals the literal rounded to float (Java's promotion)
            long asFloat = (long) (float) exact;
            return asFloat == exact ? List.of(TagSignature.integerTag(id.name, exact))
                    : List.of(TagSignature.integerTag(id.name, exact), TagSignature.integerTag(id.name, asFloat));
        }
        if (v instanceof Boolean b) {
            return List.of(TagSignature.booleanTag(id.name, b));
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
