package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Session;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * {@code GET /rules}: what the pooled connection does with the calls Jakarta Messaging 3.1
 * section 12 forbids in a JTA transaction, one line per call: the exception's simple class name.
 */
@WebServlet("/rules")
public class SessionRulesServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = "java:app/jms/cf")
    private ConnectionFactory factory;

    @Resource
    private UserTransaction transaction;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder out = new StringBuilder();
        try {
            transaction.begin();
            try (Connection connection = factory.createConnection()) {
                Session session = connection.createSession(true, Session.CLIENT_ACKNOWLEDGE);
                out.append("transacted=").append(session.getTransacted()).append('\n');
                out.append("commit=").append(outcome(session::commit)).append('\n');
                out.append("rollback=").append(outcome(session::rollback)).append('\n');
                out.append("setMessageListener=").append(outcome(() -> session.setMessageListener(m -> { })))
                        .append('\n');
                out.append("secondSession=").append(outcome(connection::createSession)).append('\n');
                out.append("setClientID=").append(outcome(() -> connection.setClientID("x"))).append('\n');
            }
            transaction.rollback();
            response.getWriter().print(out);
        } catch (Exception e) {
            response.sendError(500, e.toString());
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    private static String outcome(Call call) {
        try {
            call.run();
            return "allowed";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}
