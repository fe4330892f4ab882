package io.schedext.config;

import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Who may reach the HTTP port: loopback only by default, every interface once client certificates
 * are required or {@code server.address} says so. TLS itself is plain Spring Boot ({@code
 * server.ssl.bundle} naming an SSL bundle); see docs/configuration.md.
 */
@Configuration(proxyBeanMethods = false)
public class ServerAccessConfiguration {

  /** Binds the server to 127.0.0.1 unless configured otherwise (see {@link LoopbackByDefault}). */
  @Bean
  LoopbackByDefault loopbackByDefault(ServerProperties server) {
    return new LoopbackByDefault(server);
  }

  /**
   * Connector socket buffers sized for replies of thousands of nodes (see {@link SocketBuffers}).
   */
  @Bean
  SocketBuffers socketBuffers() {
    return new SocketBuffers();
  }

  /**
   * Calls answered with {@code Connection: close} between SIGTERM and the server's graceful
   * shutdown, so that a rolling update fails none (see {@link ShutdownDrain}).
   */
  @Bean
  ShutdownDrain shutdownDrain(ExtenderProperties props) {
    return new ShutdownDrain(props.http(), System::nanoTime);
  }
}
