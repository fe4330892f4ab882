package io.schedext.warmup;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal HTTP/1.1 client for the extender's own endpoint on this host: {@code POST}s a JSON body
 * on one kept-alive connection and reads the reply, as kube-scheduler's Go transport does (the same
 * request headers, {@code TCP_NODELAY}, one request at a time per connection). The warm-up uses it
 * so that its calls go through the HTTP server, which an in-process call never reaches. Not
 * thread-safe; plain HTTP only.
 */
final class LoopbackClient implements AutoCloseable {

  /** The most a reply's status line and headers may take. */
  static final int MAX_HEAD_BYTES = 16 * 1024;

  private final InetSocketAddress address;
  private final int timeoutMillis;
  private final byte[] head = new byte[MAX_HEAD_BYTES];
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  /** A client of {@code address}; each read waits at most {@code timeoutMillis}. */
  LoopbackClient(InetSocketAddress address, int timeoutMillis) {
    this.address = address;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Posts {@code body} to {@code path} and reads the whole reply; returns its status. Opens the
   * connection on first use and again after the server closed it.
   *
   * @throws IOException when the server cannot be reached or its reply cannot be read
   */
  int post(String path, byte[] body) throws IOException {
    if (socket == null) {
      connect();
    }
    try {
      out.write(requestHead(path, body.length));
      out.write(body);
      out.flush();
      return readReply();
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  private void connect() throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(address, timeoutMillis);
      s.setSoTimeout(timeoutMillis);
      in = new BufferedInputStream(s.getInputStream());
      out = s.getOutputStream();
      socket = s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  private byte[] requestHead(String path, int length) {
    return ("POST "
            + path
            + " HTTP/1.1\r\nHost: "
            + address.getHostString()
            + ":"
            + address.getPort()
            + "\r\nUser-Agent: Go-http-client/1.1\r\nContent-Length: "
            + length
            + "\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Reads a reply's head and body (by its {@code Content-Length}; a reply without one, and with a
   * status that may have a body, is read to the end of the connection, which is then closed) and
   * returns its status. A chunked reply is an error: the endpoint always sends the length.
   */
  private int readReply() throws IOException {
    int n = 0;
    while (n < 4
        || head[n - 4] != '\r'
        || head[n - 3] != '\n'
        || head[n - 2] != '\r'
        || head[n - 1] != '\n') {
      if (n == head.length) {
        throw new IOException("reply head longer than " + MAX_HEAD_BYTES + " bytes");
      }
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed before the reply's head ended");
      }
      head[n++] = (byte) b;
    }
    String text = new String(head, 0, n, StandardCharsets.ISO_8859_1);
    int status = status(text);
    long length = -1;
    boolean closes = false;
    for (String line : text.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = line.substring(0, colon).trim();
      String value = line.substring(colon + 1).trim();
      if (name.equalsIgnoreCase("Content-Length")) {
        length = Long.parseLong(value);
      } else if (name.equalsIgnoreCase("Transfer-Encoding")
          && !value.equalsIgnoreCase("identity")) {
        throw new IOException("unexpected Transfer-Encoding " + value);
      } else if (name.equalsIgnoreCase("Connection") && value.equalsIgnoreCase("close")) {
        closes = true;
      }
    }
    if (status == 204 || status == 304 || status / 100 == 1) {
      // Never a body (RFC 9112, 6.3).
      length = 0;
    }
    if (length < 0) {
      in.transferTo(OutputStream.nullOutputStream());
      close();
      return status;
    }
    // Throws EOFException when the body is shorter than its Content-Length.
    in.skipNBytes(length);
    if (closes) {
      close();
    }
    return status;
  }

  /** The status code of a reply head's status line ({@code HTTP/1.1 200 OK}). */
  static int status(String head) throws IOException {
    int sp = head.indexOf(' ');
    if (!head.startsWith("HTTP/1.") || sp < 0 || head.length() < sp + 4) {
      throw new IOException("not an HTTP/1.x reply: " + head.lines().findFirst().orElse(""));
    }
    try {
      return Integer.parseInt(head.substring(sp + 1, sp + 4));
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP/1.x reply: " + head.lines().findFirst().orElse(""), e);
    }
  }

  /** Closes the connection, if one is open; the next post opens another. */
  @Override
  public void close() {
    Socket s = socket;
    socket = null;
    in = null;
    out = null;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // Nothing to do: the connection is gone either way.
      }
    }
  }
}
