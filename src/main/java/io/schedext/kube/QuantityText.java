package io.schedext.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;

/**
 * Decodes a {@link Quantity} written as a JSON string, as the API server writes every quantity,
 * straight from the parser's text: {@code new Quantity(text)}, which is what fabric8's own
 * deserializer makes of it after reading the value into a tree first (a tree, a deserialization
 * context and a type lookup for each of the dozen quantities of a pod or node). Any other form (a
 * number, an object with {@code amount} and {@code format}) goes to fabric8's deserializer
 * unchanged.
 */
public final class QuantityText extends StdDeserializer<Quantity> {

  private static final long serialVersionUID = 1L;

  private static final Quantity.Deserializer FABRIC8 = new Quantity.Deserializer();

  @JsonDeserialize(using = QuantityText.class)
  private abstract static class Mixin {}

  /** Jackson creates it by reflection. */
  public QuantityText() {
    super(Quantity.class);
  }

  /** Makes {@code mapper} decode quantities this way; call before its first use. */
  public static ObjectMapper useIn(ObjectMapper mapper) {
    mapper.addMixIn(Quantity.class, Mixin.class);
    return mapper;
  }

  /** Whether {@link #useIn} was applied to {@code mapper}. */
  static boolean usedIn(ObjectMapper mapper) {
    return mapper.findMixInClassFor(Quantity.class) == Mixin.class;
  }

  @Override
  public Quantity deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (p.hasToken(JsonToken.VALUE_STRING)) {
      return new Quantity(p.getText());
    }
    return FABRIC8.deserialize(p, ctxt);
  }
}
