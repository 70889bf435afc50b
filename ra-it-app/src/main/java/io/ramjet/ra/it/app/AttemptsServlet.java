package io.ramjet.ra.it.app;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code GET /attempts}: the poison bean's delivery attempts so far; also tells that the application is up. */
@WebServlet("/attempts")
public class AttemptsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    private Attempts attempts;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.getWriter().print(attempts.count());
    }
}
