package io.schedext.extender;

import io.schedext.cluster.ClusterSource;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

/**
 * One verb of the extender protocol, defined in one place: its path segment, how its request is
 * read, how it answers while the cluster state is not ready, and what it does. {@link
 * ExtenderEndpoint} serves every verb the same way from this definition; {@link Verbs} lists them.
 *
 * @param name the path segment ({@code /scheduler/{name}}, {@code /profiles/{profile}/{name}})
 * @param gated true for the calls kube-scheduler waits on for each pod, which hold watch events
 *     back while they are answered ({@link io.schedext.cache.EventGate})
 * @param async true when the verb runs on the bind workers, releasing the HTTP worker meanwhile
 * @param decoder reads the request; every client mistake is a {@link BadRequestException}
 * @param notReady the answer while the cluster state is not ready, or null to answer anyway
 * @param handler answers a decoded request
 * @param <A> the decoded request
 */
record Verb<A>(
    String name,
    boolean gated,
    boolean async,
    Decoder<A> decoder,
    NotReady<A> notReady,
    Handler<A> handler) {

  /**
   * Reads a verb's request from the HTTP request, against the call's snapshot where names are
   * decoded.
   */
  interface Decoder<A> {
    /** The decoded request; a client mistake throws {@link BadRequestException}. */
    A decode(HttpServletRequest request, Call call) throws IOException;
  }

  /** A verb's answer while the cluster state is not ready. */
  interface NotReady<A> {
    /** The reply to {@code args} when the state is not ready for {@code reason}. */
    Reply reply(A args, String reason);
  }

  /** What a verb does with a decoded request. */
  interface Handler<A> {
    /** The reply to {@code args} on {@code call}. */
    Reply handle(Call call, A args);
  }

  /**
   * The not-ready reply to {@code args} when {@code source} is not ready and the verb has one, else
   * null.
   */
  Reply unlessReady(A args, ClusterSource source) {
    if (notReady == null || source.isReady()) {
      return null;
    }
    return notReady.reply(args, "extender cluster state is not ready: " + source.notReadyReason());
  }
}
