package io.ramjet.bench.report;

import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The ratios as a horizontal bar chart in SVG, built as a string: one group of bars per row, one
 * bar per peer other than Ramjet, on a log scale centred on 1. A bar points right where Ramjet
 * does better: its length is Ramjet/peer on rows where more is better and peer/Ramjet on rows
 * where less is better (latency, time, memory); its label is always the plain Ramjet/peer ratio.
 */
public final class SvgChart {

    private static final String[] COLORS = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
    private static final int WIDTH = 980;
    private static final int LABEL_WIDTH = 400;
    private static final int PLOT_WIDTH = 460;
    private static final int BAR = 14;
    private static final int GAP = 10;
    private static final int TOP = 70;
    /** The plot spans 1/100x to 100x; bars beyond are clipped at the edge. */
    private static final double DECADES = 2;

    private SvgChart() {
    }

    public static String render(Results results, String subtitle) {
        List<String> others = results.others();
        List<Row> rows = results.rows();
        int groupHeight = Math.max(1, others.size()) * BAR + GAP;
        int height = TOP + rows.size() * groupHeight + 40;
        double centre = LABEL_WIDTH + 50 + PLOT_WIDTH / 2.0;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, height, WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
        svg.append("<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">Ramjet against its peers, "
                + "per workload</text>\n");
        svg.append("<text x=\"10\" y=\"38\">").append(escape(subtitle)).append("</text>\n");
        svg.append("<text x=\"10\" y=\"54\">bar right of 1x = Ramjet better (log scale); label = Ramjet/peer</text>\n");
        for (int i = 0; i < others.size(); i++) {
            int x = WIDTH - 130;
            int y = 16 + i * 16;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", x, y, COLORS[i % COLORS.length], x + 18, y + 11,
                    escape(others.get(i))));
        }
        for (int d = (int) -DECADES; d <= DECADES; d++) {
            double x = centre + d * (PLOT_WIDTH / 2.0) / DECADES;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%sx</text>%n",
                    x, TOP - 6, x, height - 30, d == 0 ? "#000" : "#ddd", x, height - 14, tick(d)));
        }
        for (int r = 0; r < rows.size(); r++) {
            Row row = rows.get(r);
            int y = TOP + r * groupHeight;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LABEL_WIDTH - 8, y + others.size() * BAR / 2 + 4, escape(row.title())));
            for (int i = 0; i < others.size(); i++) {
                int by = y + i * BAR;
                OptionalDouble ratio = results.ratio(row, others.get(i));
                if (ratio.isEmpty() || ratio.getAsDouble() <= 0) {
                    svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#999\">n/a</text>%n",
                            centre + 4, by + BAR - 3));
                    continue;
                }
                double advantage = row.higherIsBetter() ? ratio.getAsDouble() : 1 / ratio.getAsDouble();
                double decades = Math.max(-DECADES, Math.min(DECADES, Math.log10(advantage)));
                double length = decades * (PLOT_WIDTH / 2.0) / DECADES;
                double x = length >= 0 ? centre : centre + length;
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                        + "fill=\"%s\"/>%n", x, by + 1, Math.max(1, Math.abs(length)), BAR - 2,
                        COLORS[i % COLORS.length]));
                double labelX = length >= 0 ? centre + Math.abs(length) + 4 : centre + length - 4;
                svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%.2fx</text>%n",
                        labelX, by + BAR - 3, length >= 0 ? "start" : "end", ratio.getAsDouble()));
            }
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static String tick(int decade) {
        return decade >= 0 ? Long.toString(Math.round(Math.pow(10, decade))) : "1/" + Math.round(Math.pow(10, -decade));
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
