package io.ramjet.junit5;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The extension brings no JUnit of its own onto a user's class path: every JUnit dependency of its
 * published pom is {@code provided} or {@code test}, so Maven never puts a junit-jupiter-api of
 * ours beside the user's engine (mixed versions fail at launch), whatever the order of their
 * dependencies.
 */
class DependencyScopeTest {

    private static final Path POM = Path.of("pom.xml");
    private static final Set<String> NOT_TRANSITIVE = Set.of("provided", "test");

    @Test
    void noJUnitArtifactIsADependencyAUserInherits() throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(POM.toFile())
                .getDocumentElement();
        assertEquals("ramjet-junit5", text(project, "artifactId"), "the extension's own pom");
        Element dependencies = (Element) project.getElementsByTagName("dependencies").item(0);
        NodeList all = dependencies.getElementsByTagName("dependency");
        List<String> inherited = new ArrayList<>();
        int junit = 0;
        for (int i = 0; i < all.getLength(); i++) {
            Element dependency = (Element) all.item(i);
            String group = text(dependency, "groupId");
            if (group.startsWith("org.junit") || group.equals("org.opentest4j")) {
                junit++;
                if (!NOT_TRANSITIVE.contains(text(dependency, "scope"))) {
                    inherited.add(group + ":" + text(dependency, "artifactId"));
                }
            }
        }
        assertTrue(junit > 0, "the extension compiles against the JUnit API");
        assertEquals(List.of(), inherited, "JUnit artifacts a user's build would inherit");
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getParentNode() == parent) {
                return nodes.item(i).getTextContent().trim();
            }
        }
        return "";
    }
}
