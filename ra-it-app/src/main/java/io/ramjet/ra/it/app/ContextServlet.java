package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * The simplified API as Jakarta EE applications write it: an injected {@link JMSContext} of the
 * adapter's pooled factory. {@code POST /context?to=QUEUE&count=N&prefix=P&outcome=commit|rollback}
 * sends N text messages "P-0" ... in one JTA transaction, then commits or rolls it back.
 * {@code GET /context}: in a transaction, what the injected context does with the calls Jakarta
 * Messaging 3.1 forbids there, one line per call: the exception's simple class name.
 */
@WebServlet("/context")
public class ContextServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    @JMSConnectionFactory("java:app/jms/definedCf")
    private JMSContext context;

    @Resource
    private UserTransaction transaction;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int count = Integer.parseInt(request.getParameter("count"));
        String prefix = request.getParameter("prefix");
        boolean commit = !"rollback".equals(request.getParameter("outcome"));
        try {
            transaction.begin();
            Queue queue = context.createQueue(request.getParameter("to"));
            JMSProducer producer = context.createProducer();
            for (int i = 0; i < count; i++) {
                producer.send(queue, prefix + "-" + i);
            }
            if (commit) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
            response.getWriter().print(commit ? "committed " + count : "rolled back " + count);
        } catch (Exception e) {
            response.sendError(500, e.toString());
            log("send through the injected context failed", e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder out = new StringBuilder();
        try {
            transaction.begin();
            out.append("transacted=").append(context.getTransacted()).append('\n');
            out.append("commit=").append(outcome(context::commit)).append('\n');
            out.append("rollback=").append(outcome(context::rollback)).append('\n');
            out.append("acknowledge=").append(outcome(context::acknowledge)).append('\n');
            out.append("setClientID=").append(outcome(() -> context.setClientID("x"))).append('\n');
            out.append("stop=").append(outcome(context::stop)).append('\n');
            out.append("close=").append(outcome(context::close)).append('\n');
            transaction.rollback();
            response.getWriter().print(out);
        } catch (Exception e) {
            response.sendError(500, e.toString());
        }
    }

    private static String outcome(Runnable call) {
        try {
            call.run();
            return "allowed";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }
}
