package io.schedext.config;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * Sizes the connector's per-connection socket buffers for the extender's traffic. Tomcat moves a
 * body between the socket and the request in pieces of its application buffer (8 KB by default),
 * one system call each: a prioritize reply for 5,000 nodes (~150 KB) took about twenty writes and a
 * 5,000-name request about ten reads. With 64 KB buffers it is three writes and two reads.
 * kube-scheduler keeps one or a few connections open, so the memory is small (two buffers per open
 * connection).
 */
final class SocketBuffers implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

  /** The application read and write buffer of each connection. */
  static final int BYTES = 64 * 1024;

  @Override
  public void customize(TomcatServletWebServerFactory factory) {
    factory.addConnectorCustomizers(
        connector -> {
          connector.setProperty("socket.appReadBufSize", Integer.toString(BYTES));
          connector.setProperty("socket.appWriteBufSize", Integer.toString(BYTES));
        });
  }
}
