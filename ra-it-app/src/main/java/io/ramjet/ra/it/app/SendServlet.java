package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSConnectionFactoryDefinition;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.resource.AdministeredObjectDefinition;
import jakarta.resource.ConnectionFactoryDefinition;
import jakarta.resource.spi.TransactionSupport.TransactionSupportLevel;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * {@code POST /send?to=NAME&type=queue|topic&count=N&prefix=P&outcome=commit|rollback}: sends N
 * text messages "P-0" ... through the adapter's pooled connection factory inside one JTA
 * transaction, then commits or rolls it back. {@code to=orders-admin} sends through the
 * administered queue object instead of a name; {@code to=news-defined} sends to topic it.news
 * through the factory and topic of {@code @JMSConnectionFactoryDefinition} and
 * {@code @JMSDestinationDefinition}.
 */
@WebServlet("/send")
@ConnectionFactoryDefinition(name = "java:app/jms/cf", interfaceName = "jakarta.jms.ConnectionFactory",
        resourceAdapter = "ramjet-ra", transactionSupport = TransactionSupportLevel.XATransaction,
        minPoolSize = 0, maxPoolSize = 8)
@AdministeredObjectDefinition(name = "java:app/jms/orders", resourceAdapter = "ramjet-ra",
        interfaceName = "jakarta.jms.Queue", className = "io.ramjet.ra.ManagedQueue", properties = "name=it.orders")
@JMSConnectionFactoryDefinition(name = "java:app/jms/definedCf", resourceAdapter = "ramjet-ra",
        interfaceName = "jakarta.jms.ConnectionFactory", minPoolSize = 0, maxPoolSize = 4)
@JMSDestinationDefinition(name = "java:app/jms/definedNews", resourceAdapter = "ramjet-ra",
        interfaceName = "jakarta.jms.Topic", className = "io.ramjet.ra.ManagedTopic", destinationName = "it.news",
        properties = "name=it.news")
public class SendServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Resource(lookup = "java:app/jms/cf")
    private ConnectionFactory factory;

    @Resource(lookup = "java:app/jms/orders")
    private Queue administeredOrders;

    @Resource(lookup = "java:app/jms/definedCf")
    private ConnectionFactory definedFactory;

    @Resource(lookup = "java:app/jms/definedNews")
    private Topic definedNews;

    @Resource
    private UserTransaction transaction;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String to = request.getParameter("to");
        boolean topic = "topic".equals(request.getParameter("type"));
        int count = Integer.parseInt(request.getParameter("count"));
        String prefix = request.getParameter("prefix");
        boolean commit = !"rollback".equals(request.getParameter("outcome"));
        try {
            transaction.begin();
            boolean defined = "news-defined".equals(to);
            try (Connection connection = (defined ? definedFactory : factory).createConnection()) {
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Destination destination = "orders-admin".equals(to) ? administeredOrders
                        : defined ? definedNews
                        : topic ? session.createTopic(to) : session.createQueue(to);
                MessageProducer producer = session.createProducer(destination);
                for (int i = 0; i < count; i++) {
                    producer.send(session.createTextMessage(prefix + "-" + i));
                }
            }
            if (commit) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
            response.getWriter().print(commit ? "committed " + count : "rolled back " + count);
        } catch (Exception e) {
            response.sendError(500, e.toString());
            log("send failed", e);
        }
    }
}
