package io.schedext.extender;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.NodeNameIndex;
import io.schedext.extender.wire.NodeNamesDeserializer;
import io.schedext.extender.wire.RecentCalls;
import io.schedext.extender.wire.RecentNames;
import io.schedext.extender.wire.RecentPod;
import java.io.IOException;
import java.util.List;

/**
 * The fast path of the filter and prioritize bodies: a body in the form kube-scheduler sends
 * ({@code Pod}, {@code Nodes} null, {@code NodeNames}, nothing else) taken apart token by token,
 * without the mapper's bean machinery, reusing what the last calls decoded ({@link RecentCalls}).
 * Any other body is left to the mapper. Thread-safe.
 */
final class PlainArgsDecoder {

  private final ObjectMapper mapper;
  private final RecentPod recentPod;
  private final RecentNames recentNames;

  /** Parses bodies with {@code mapper}, reusing the pod and the names {@code recent} carries. */
  PlainArgsDecoder(ObjectMapper mapper, RecentCalls recent) {
    this.mapper = mapper;
    this.recentPod = recent.pod();
    this.recentNames = recent.names();
  }

  /**
   * The arguments of a body in the form kube-scheduler sends them, decoded without the mapper's
   * bean machinery: an object of {@code "Pod"} (an object), {@code "Nodes"} (null, as Go writes a
   * nil list) and {@code "NodeNames"} (an array), each at most once, nothing else, nothing after
   * it. Null for any other body, and for any error: the mapper then decodes the body from its
   * start, so what it accepts and the errors it reports are its own (the pod, decoded here already,
   * then comes back as {@link RecentPod}'s). Node names are decoded against {@code names}, or taken
   * with their positions from the {@link RecentNames} when the array is byte for byte the one kept
   * there; null names (no index) leave the body to the mapper.
   */
  ExtenderArgs decode(byte[] body, NodeNameIndex names) {
    if (names == null) {
      return null;
    }
    try (JsonParser p = mapper.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      Pod pod = null;
      List<String> nodeNames = null;
      boolean sawPod = false;
      boolean sawNullNodes = false;
      JsonToken t = p.nextToken();
      for (; t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (!sawPod && value == JsonToken.START_OBJECT && "Pod".equals(field)) {
          pod = recentPod.read(p, null, body);
          sawPod = true;
        } else if (!sawNullNodes && value == JsonToken.VALUE_NULL && "Nodes".equals(field)) {
          // kube-scheduler marshals its nil node list as null.
          sawNullNodes = true;
        } else if (nodeNames == null
            && value == JsonToken.START_ARRAY
            && "NodeNames".equals(field)) {
          // kube-scheduler's prioritize repeats the names of the filter reply before it.
          nodeNames = recentNames.match(body, p.currentTokenLocation().getByteOffset(), names);
          if (nodeNames != null) {
            p.skipChildren();
          } else {
            nodeNames = NodeNamesDeserializer.decodeNames(p, names);
            if (nodeNames == null) {
              return null;
            }
          }
        } else {
          return null;
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        return null;
      }
      return new ExtenderArgs(pod, null, nodeNames);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
