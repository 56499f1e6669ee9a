import { and, eq, isNull, sql } from 'drizzle-orm';
import { webhookEvents, webhookFailures } from '#server/db/schema/index';
import { AppError, notFound } from '#server/lib/errors';
import type { ProviderName } from '#shared/commerce';
import { PROVIDER_NAMES, WEBHOOK_RETRY_MESSAGES } from '#shared/admin-commerce';
import { MalformedEventError, ProviderError, type PaymentProvider, type ProviderEvent } from '../provider.ts';
import type { EventHandlers, Handler } from './events.ts';
import type { PaymentsContext, WebhookFailureInput } from './shared.ts';

/** a reason longer than this is cut (an error message can quote a whole query or document) */
const WEBHOOK_REASON_MAX = 2000;

/**
 * Provider events applied once each through the dispatch table, and the signed deliveries that
 * could not be applied, kept for admins to retry (docs/product/webhook-failures.md).
 */
export function createWebhooks(ctx: PaymentsContext, handlers: EventHandlers) {
  const { deps, db } = ctx;

  /** a delivery of this event was applied at last: its earlier failures need nobody's attention now */
  async function resolveWebhookFailures(provider: ProviderName, eventId: string) {
    await db
      .update(webhookFailures)
      .set({ resolvedAt: new Date() })
      .where(
        and(
          eq(webhookFailures.provider, provider),
          eq(webhookFailures.eventId, eventId),
          isNull(webhookFailures.resolvedAt),
        ),
      );
  }

  // methods, not functions: a retry goes through the service's own handleEvent and recordWebhookFailure
  return {
    /** apply a provider event exactly once (webhook_events), through the dispatch table */
    async handleEvent(provider: ProviderName, event: ProviderEvent): Promise<'applied' | 'duplicate' | 'ignored'> {
      const [fresh] = await db
        .insert(webhookEvents)
        .values({ provider, eventId: event.id, type: event.type === 'ignored' ? event.providerType : event.type })
        .onConflictDoNothing()
        .returning();
      if (!fresh) return 'duplicate';
      if (event.type === 'ignored') {
        await db
          .update(webhookEvents)
          .set({ processedAt: new Date() })
          .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
        await resolveWebhookFailures(provider, event.id);
        return 'ignored';
      }
      try {
        await (handlers[event.type] as Handler<typeof event.type>)(provider, event as never);
      } catch (err) {
        // not applied: let the provider's retry apply it
        await db
          .delete(webhookEvents)
          .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
        throw err;
      }
      await db
        .update(webhookEvents)
        .set({ processedAt: new Date() })
        .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, event.id)));
      await resolveWebhookFailures(provider, event.id);
      return 'applied';
    },
    /** the provider whose webhooks `name` names, when this server takes payments through it */
    webhookProvider(name: ProviderName): PaymentProvider | null {
      if (name === 'sandbox') return deps.sandbox ?? null;
      if (name === 'stripe') return deps.card.name === 'stripe' ? deps.card : null;
      return deps.paypal.name === 'paypal' ? deps.paypal : null;
    },
    /**
     * An admin's retry of a delivery that could not be applied: the event is read again from the
     * provider (the delivery's own body is not kept) and applied as a delivery would be. A retry that
     * fails again counts as another delivery on the row, with its reason (docs/product/webhook-failures.md).
     */
    async retryWebhookFailure(id: number): Promise<{ outcome: 'applied' | 'duplicate' | 'ignored' }> {
      const [failure] = await db.select().from(webhookFailures).where(eq(webhookFailures.id, id)).limit(1);
      if (!failure) throw notFound(WEBHOOK_RETRY_MESSAGES.notFound);
      if (failure.resolvedAt) throw new AppError('conflict', WEBHOOK_RETRY_MESSAGES.resolved);
      if (!failure.eventId) throw new AppError('invalid', WEBHOOK_RETRY_MESSAGES.noEventId);
      const name = failure.provider as ProviderName;
      const provider = this.webhookProvider(name);
      const providerName = PROVIDER_NAMES[name] ?? failure.provider;
      if (!provider) throw new AppError('invalid', WEBHOOK_RETRY_MESSAGES.providerNotInUse(providerName));
      const again = async (kind: 'rejected' | 'failed', reason: string) =>
        this.recordWebhookFailure({
          provider: name,
          eventId: failure.eventId,
          eventType: failure.eventType,
          kind,
          reason,
          outline: null,
        });
      let event: ProviderEvent;
      try {
        event = await provider.fetchEvent(failure.eventId);
      } catch (err) {
        if (err instanceof ProviderError && err.code === 'not_found')
          throw new AppError('invalid', WEBHOOK_RETRY_MESSAGES.unknownToProvider(providerName));
        if (err instanceof MalformedEventError) {
          await again('rejected', err.reason);
          throw new AppError('invalid', WEBHOOK_RETRY_MESSAGES.stillFailing(err.reason));
        }
        if (err instanceof ProviderError)
          throw new AppError('provider-unavailable', WEBHOOK_RETRY_MESSAGES.providerUnreachable(providerName));
        throw err;
      }
      let outcome: 'applied' | 'duplicate' | 'ignored';
      try {
        outcome = await this.handleEvent(name, event);
      } catch (err) {
        const reason = (err instanceof Error ? err.message : String(err)) || 'An error without a message.';
        await again('failed', reason);
        throw new AppError('invalid', WEBHOOK_RETRY_MESSAGES.stillFailing(reason));
      }
      // applied before (by a later delivery that found the failure open): nothing is left to do
      if (outcome === 'duplicate') await resolveWebhookFailures(name, failure.eventId);
      return { outcome };
    },
    /**
     * Keep a signed delivery that could not be applied where admins see it. The same event again
     * (the provider's retries) counts another delivery on its row and takes the latest reason.
     */
    async recordWebhookFailure(input: WebhookFailureInput): Promise<void> {
      const now = new Date();
      const reason =
        input.reason.length > WEBHOOK_REASON_MAX ? `${input.reason.slice(0, WEBHOOK_REASON_MAX - 1)}…` : input.reason;
      const values = { ...input, reason, firstAt: now, lastAt: now };
      // an event without a readable id is a row of its own each time (NULLs never conflict)
      await db
        .insert(webhookFailures)
        .values(values)
        .onConflictDoUpdate({
          target: [webhookFailures.provider, webhookFailures.eventId, webhookFailures.kind],
          set: {
            reason,
            eventType: sql`coalesce(excluded.event_type, ${webhookFailures.eventType})`,
            outline: sql`coalesce(excluded.outline, ${webhookFailures.outline})`,
            deliveries: sql`${webhookFailures.deliveries} + 1`,
            lastAt: now,
            resolvedAt: null,
          },
        });
    },
  };
}
