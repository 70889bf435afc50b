package io.ramjet.client;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the shaded jar holds and what its published pom asks for. */
class ShadedJarContentsIT {

    @Test
    void everyClassLivesUnderIoRamjet() throws Exception {
        try (JarFile jar = new JarFile(ShadedJar.path().toFile())) {
            List<String> foreign = jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".class") && !name.startsWith("io/ramjet/"))
                    .toList();
            assertEquals(List.of(), foreign);
            assertTrue(jar.getEntry("io/ramjet/shaded/io/netty/channel/nio/NioIoHandler.class") != null);
            assertTrue(jar.getEntry("io/ramjet/provider/jms/RamjetConnectionFactory.class") != null);
        }
    }

    @Test
    void holdsNoNativeLibraryNorJmsApi() throws Exception {
        try (JarFile jar = new JarFile(ShadedJar.path().toFile())) {
            List<String> unwanted = jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".so") || name.endsWith(".dll") || name.endsWith(".jnilib")
                            || name.startsWith("META-INF/native") || name.startsWith("jakarta/"))
                    .toList();
            assertEquals(List.of(), unwanted);
        }
    }

    @Test
    void namesItsAutomaticModule() throws Exception {
        try (JarFile jar = new JarFile(ShadedJar.path().toFile())) {
            assertEquals("io.ramjet.client", jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
        }
    }

    @Test
    void publishedPomAsksOnlyForSlf4jAndAProvidedJmsApi() throws Exception {
        NodeList dependencies = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(ShadedJar.reducedPom().toFile()).getElementsByTagName("dependency");
        List<String> visible = new ArrayList<>();
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            String scope = text(dependency, "scope");
            if (!"test".equals(scope)) {
                visible.add(text(dependency, "artifactId") + ":" + scope);
            }
        }
        assertEquals(List.of("jakarta.jms-api:provided", "slf4j-api:compile"), visible.stream().sorted().toList());
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "compile" : nodes.item(0).getTextContent().trim();
    }
}
