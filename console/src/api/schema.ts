// Generated from docs/openapi.json by `npm run generate-api -w console`: do not edit by hand.
export interface paths {
    "/v1/missions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The player's missions; enters the player into those they became eligible for.
         * @description Endpoint 1 of the contract; served by the rules service.
         */
        post: operations["listMissions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/missions/{missionKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One mission, as the feed returns it (also one that is only in a collection).
         * @description Endpoint 2 of the contract; served by the rules service.
         */
        post: operations["getMission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mission-collections/{collectionKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A mission collection with its missions in the collection's order.
         * @description Endpoint 3 of the contract; served by the rules service.
         */
        post: operations["getMissionCollection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/missions/{missionKey}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accepts a mission whose opt-in mode is RequiresAcceptance; its objectives count from then on.
         * @description A mission the player cannot see now (unknown, switched off, hidden, past its deadline or not started) is mission.not_found, as on endpoint 2, unless the player was entered into it. The player must have been entered into the mission by reading it (endpoints 1 to 3). Accepting again answers the mission as it is, with the first acceptance time. An Automatic mission counts without acceptance and answers as it is.
         *
         *     Named by the contract only through its error codes; served by the rules service.
         */
        post: operations["acceptMission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/marketplace-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the player can see in the shop now.
         * @description Endpoint 4 of the contract; served by the ledger service.
         */
        get: operations["listMarketplaceItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/marketplace-items/{marketplaceItemKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One shop item, as the shop lists it (also one that is only in a collection).
         * @description Endpoint 5 of the contract; served by the ledger service.
         */
        get: operations["getMarketplaceItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/marketplace-collections/{collectionKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A curated collection of shop items, in the order set.
         * @description Endpoint 6 of the contract; served by the ledger service.
         */
        get: operations["getMarketplaceCollection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/marketplace-items/{marketplaceItemKey}/purchases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buys an item with points; a replay with the same idempotency key returns the same purchase.
         * @description Endpoint 7 of the contract; served by the ledger service.
         */
        post: operations["purchaseMarketplaceItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The player's points balance (zero for a player never seen).
         * @description Endpoint 8 of the contract; served by the ledger service.
         */
        get: operations["getPointsBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/points/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Credits or debits the balance by hand and records why.
         * @description Endpoint 9 of the contract; served by the ledger service.
         */
        post: operations["adjustPoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/player-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalog items granted to the player by purchases and rewards, newest first.
         * @description Not in the contract: the record of what a purchase's contents and mission or streak rewards granted, so the game server can deliver them. Take caps the list (default and maximum 1000).
         *
         *     Named by the contract only through its error codes; served by the ledger service.
         */
        get: operations["listPlayerItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaderboards/{leaderboardKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A leaderboard: the top, the neighbours around the player and named players.
         * @description Endpoint 10 of the contract; served by the query service.
         */
        get: operations["getLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streaks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The player's streaks: live run, longest run, expiry and next milestone.
         * @description Endpoint 11 of the contract; served by the rules service.
         */
        get: operations["listStreaks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streaks/{streakKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One streak of the player.
         * @description Endpoint 12 of the contract; served by the rules service.
         */
        get: operations["getStreak"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends a batch of 1 to 1,000 player events; each item is accepted or refused on its own.
         * @description Answers 200 whenever the batch is well formed: check `rejected` or each result. Per-item codes: event.not_found, event.inactive, event.unknown_property, event.required_property_missing, event.property_type_mismatch, event.property_value_out_of_range, event.item_missing, player.external_id_missing, player.external_id_too_long, player.time_zone_invalid.
         *
         *     Endpoint 13 of the contract; served by the gateway service.
         */
        post: operations["sendEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/players/attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sets some of a player's attributes (all or none); creates the player on first sight.
         * @description Each key must be an active attribute of the environment (section playerAttributes of the environment file) and each value of its type; null removes the attribute. One bad key writes nothing, and every problem is listed in errors. Answers the player with all its attributes.
         *
         *     Named by the contract only through its error codes; served by the gateway service.
         */
        post: operations["setPlayerAttributes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox only: settles the leaderboard's period in progress now, for testing.
         * @description Cuts the period in progress at now and settles it exactly as its end would (final ranks, league promotions and relegations, the analysts' records); the next period starts at the cut. Live environments are refused and nothing changes. Served by the query service through the gateway.
         */
        post: operations["settleSandboxLeaderboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of organizations, oldest first: all of them for the admin token, an operator’s own for a session. */
        get: operations["listOrganizations"];
        put?: never;
        /** Creates an organization (admin token only). */
        post: operations["createOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An organization with its projects and their Sandbox and Live environments (viewer). */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Changes an organization's billing status or Live monthly active players cap (admin token only). */
        patch: operations["updateOrganization"];
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's usage against its limits now: Live monthly active players against the cap, each Sandbox's players this month and events today, and requests refused today by the in-flight limit (viewer). */
        get: operations["getOrganizationUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Creates a project with its Sandbox and Live environments (admin). */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/projects/{projectId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project with its two environments (viewer). */
        get: operations["getProject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's API keys with when each was last used; never their secrets (viewer). */
        get: operations["listApiKeys"];
        put?: never;
        /** Creates an API key of the environment; the answer holds its secret, shown this once (admin). */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/api-keys/{apiKeyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes an API key: calls with it are refused from now on (admin). */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/definition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's definition as an environment file: discovery, events and every section (viewer). */
        get: operations["getEnvironmentDefinition"];
        /** Applies an environment file and answers the difference; with `dryRun=true` only answers it (designer; changing discovery: admin). */
        put: operations["applyEnvironmentDefinition"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/schemas/environment.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The JSON Schema of the environment file, as /schemas/environment.json serves it (signed in). */
        get: operations["getEnvironmentFileSchemaSignedIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The cookie's session, with its CSRF token. */
        get: operations["getSession"];
        put?: never;
        /** Signs an operator in: sets the engage_session cookie and answers the session. */
        post: operations["signIn"];
        /** Signs out: deletes the session and clears the cookie. */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's operators and their roles (owner). */
        get: operations["listOperators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's pending invitations (owner). */
        get: operations["listInvitations"];
        put?: never;
        /** Invites an email with a role; the same answer whether or not an account has the email. It replaces a pending invitation of the email; the token is shown once (owner). */
        post: operations["inviteOperator"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes a pending invitation (owner). */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The pending invitations addressed to the signed-in operator's email. */
        get: operations["listMyInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invitations/{invitationId}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accepts an invitation addressed to the signed-in operator's email: joins with its role. */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invitations/{invitationId}/decline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Declines an invitation addressed to the signed-in operator's email. */
        post: operations["declineInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accepts an invitation with its token, without a session: with the account's password when the email has an account, else creating the account with the password and name given. */
        post: operations["acceptInvitationWithToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}/operators/{operatorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Removes an operator from the organization (owner). */
        delete: operations["removeOperator"];
        options?: never;
        head?: never;
        /** Changes an operator's role (owner). */
        patch: operations["changeOperatorRole"];
        trace?: never;
    };
    "/admin/v1/organizations/{organizationId}/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the organization's audit log, oldest first unless `order=newest` (admin). */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/definition/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment file's applied versions, newest first: who, when and the difference (viewer). */
        get: operations["listDefinitionHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/players/{playerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A player of the environment with its time zone and attributes, as POST /v1/players/attributes answers (viewer). */
        get: operations["getEnvironmentPlayer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/players/{playerId}/points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's points balance, as GET /v1/points answers (viewer). */
        get: operations["getEnvironmentPlayerPoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/players/{playerId}/journal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the player's points journal, newest first: adjustments, purchases and rewards (viewer). */
        get: operations["listEnvironmentPlayerJournal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/players/{playerId}/missions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's listed missions with their progress, as POST /v1/missions answers, without entering the player into any (viewer). */
        get: operations["listEnvironmentPlayerMissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/players/{playerId}/streaks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The player's streaks, as GET /v1/streaks answers (viewer). */
        get: operations["listEnvironmentPlayerStreaks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/players/{playerId}/points/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A support adjustment: credits or debits the balance with a reason (support).
         * @description Forwarded to the ledger as POST /v1/points/adjustments would be, with the Idempotency-Key header as the idempotency key: a retry with the same key answers the first adjustment (`Idempotent-Replayed: true`) and moves nothing. Recorded in the audit log with the operator, amount and reason.
         */
        post: operations["adjustEnvironmentPlayerPoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A leaderboard as a player sees it: top, those around the player, named players; as GET /v1/leaderboards/{leaderboardKey} answers, but with each player row’s playerId (viewer).
         * @description Previous=true answers the last settled period with each row’s league movement. The player must exist.
         */
        get: operations["getEnvironmentLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}/periods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The board's newest periods, open and settled, newest first (viewer). */
        get: operations["listEnvironmentLeaderboardPeriods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/events/recent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The environment's recent event items, accepted or refused with their codes (viewer).
         * @description The live event debugger: the items of recent `POST /v1/events` batches, newest first. Refused items are always recorded; accepted ones only while someone watches (`watch=true`, which keeps recording them for RECENT_EVENTS_WATCH_TTL_MS). The environment keeps at most RECENT_EVENTS_MAX_ITEMS items (`keeps`); recording is best effort and never slows ingest.
         */
        get: operations["listRecentEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/environments/{environmentId}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's webhook endpoints with their health (viewer). */
        get: operations["listWebhooks"];
        put?: never;
        /** Subscribes an endpoint to event types; answers its signing secret, shown only here and on rotate (admin). */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook endpoint with its health (viewer). */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Removes an endpoint and its deliveries, sent or not (admin). */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /** Changes an endpoint; `status: active` resumes a paused one and sends its kept deliveries in order (admin). */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/admin/v1/webhooks/{webhookId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answers a new signing secret; during the overlap deliveries carry a signature of each (admin). */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{webhookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the endpoint's deliveries, newest first, with each one's last attempt (viewer). */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queues a delivery again as a new series of attempts, with the same id for the receiver to deduplicate (admin). */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{webhookId}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queues a `webhook.ping` delivery to the endpoint (admin). */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schemas/environment.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The JSON Schema (draft 2020-12) of the environment file, for editors and tools. */
        get: operations["getEnvironmentFileSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "mission.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent to each endpoint subscribed to `mission.completed` in the environment.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_mission_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "milestone.reached": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent to each endpoint subscribed to `milestone.reached` in the environment.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_milestone_reached"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "streak.broken": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent to each endpoint subscribed to `streak.broken` in the environment.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_streak_broken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "purchase.made": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent to each endpoint subscribed to `purchase.made` in the environment.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_purchase_made"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "points.adjusted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent to each endpoint subscribed to `points.adjusted` in the environment.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_points_adjusted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "leaderboard.period_settled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent to each endpoint subscribed to `leaderboard.period_settled` in the environment.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_leaderboard_period_settled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "leaderboard.rank_reached": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sent to each endpoint subscribed to `leaderboard.rank_reached` in the environment.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_leaderboard_rank_reached"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test delivery queued by POST /admin/v1/webhooks/{webhookId}/ping.
         * @description Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.
         */
        post: operations["webhook_webhook_ping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AdminAcceptInvitation: {
            token: string;
            password: string;
            displayName?: string;
        };
        AdminApiKey: {
            /** Format: uuid */
            apiKeyId: string;
            /** Format: uuid */
            environmentId: string;
            /** @enum {string} */
            kind: "Sandbox" | "Live";
            publicId: string;
            name: string | null;
            /** Format: date-time */
            createdAtUtc: string;
            revokedAtUtc: string | null;
            lastUsedAtUtc: string | null;
        };
        AdminApiKeyList: {
            apiKeys: components["schemas"]["AdminApiKey"][];
        };
        AdminAuditEntry: {
            /** Format: uuid */
            auditId: string;
            /** Format: date-time */
            atUtc: string;
            actor: {
                /** @enum {string} */
                kind: "operator" | "admin-token";
                operatorId: string | null;
                email: string | null;
            };
            method: string;
            route: string;
            targets: {
                [key: string]: string;
            };
            before: unknown;
            after: unknown;
            difference: unknown;
            /** @enum {string} */
            outcome: "allowed" | "denied";
            refusal: string | null;
        };
        AdminAuditLogPage: {
            entries: components["schemas"]["AdminAuditEntry"][];
            nextCursor: string | null;
        };
        AdminBoardPeriod: {
            /** Format: date-time */
            startsAtUtc: string;
            endsAtUtc: string | null;
            /** @enum {string} */
            state: "Open" | "Settled";
            participants: number | null;
        };
        AdminBoardPeriods: {
            leaderboardKey: string;
            periods: components["schemas"]["AdminBoardPeriod"][];
        };
        AdminCreateApiKey: {
            name?: string;
        };
        AdminCreatedApiKey: {
            /** Format: uuid */
            apiKeyId: string;
            /** Format: uuid */
            environmentId: string;
            /** @enum {string} */
            kind: "Sandbox" | "Live";
            publicId: string;
            name: string | null;
            /** Format: date-time */
            createdAtUtc: string;
            revokedAtUtc: string | null;
            lastUsedAtUtc: string | null;
            apiKey: string;
        };
        AdminCreatedInvitation: {
            /** Format: uuid */
            invitationId: string;
            /** Format: uuid */
            organizationId: string;
            organizationName: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "designer" | "support" | "viewer";
            /** Format: date-time */
            createdAtUtc: string;
            /** Format: date-time */
            expiresAtUtc: string;
            token: string;
        };
        AdminCreateInvitation: {
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "designer" | "support" | "viewer";
        };
        AdminCreateOrganization: {
            name: string;
            /**
             * @default none
             * @enum {string}
             */
            billingStatus?: "active" | "none" | "overdue";
            /** @default null */
            liveMonthlyActivePlayersCap?: number | null;
        };
        AdminCreateProject: {
            name: string;
        };
        AdminEnvironment: {
            /** Format: uuid */
            environmentId: string;
            /** Format: uuid */
            projectId: string;
            /** @enum {string} */
            kind: "Sandbox" | "Live";
            discovery: boolean;
        };
        AdminInvitation: {
            /** Format: uuid */
            invitationId: string;
            /** Format: uuid */
            organizationId: string;
            organizationName: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "designer" | "support" | "viewer";
            /** Format: date-time */
            createdAtUtc: string;
            /** Format: date-time */
            expiresAtUtc: string;
        };
        AdminInvitationList: {
            invitations: components["schemas"]["AdminInvitation"][];
        };
        AdminJournalEntry: {
            /** Format: uuid */
            transactionId: string;
            /** @enum {string} */
            kind: "Adjustment" | "Purchase" | "Reward";
            amount: number;
            balanceAfter: number;
            reason: string | null;
            sourceRef: string | null;
            /** Format: date-time */
            createdAtUtc: string;
        };
        AdminJournalPage: {
            playerId: string;
            entries: components["schemas"]["AdminJournalEntry"][];
            nextBefore: number | null;
        };
        AdminLeaderboardEntry: {
            rank: number;
            displayName: string | null;
            score: number;
            isMe: boolean;
            /** @enum {string} */
            movement?: "Promoted" | "Relegated" | "Stayed";
            playerId?: string;
        };
        AdminLeaderboardView: {
            leaderboard: components["schemas"]["Leaderboard"];
            top: components["schemas"]["AdminLeaderboardEntry"][];
            around: components["schemas"]["AdminLeaderboardEntry"][];
            isSettled: boolean;
            named: {
                rank: number;
                displayName: string | null;
                score: number;
                isMe: boolean;
                /** @enum {string} */
                movement?: "Promoted" | "Relegated" | "Stayed";
                playerId: string;
            }[] | null;
        };
        AdminMembership: {
            /** Format: uuid */
            organizationId: string;
            organizationName: string;
            /** @enum {string} */
            role: "owner" | "admin" | "designer" | "support" | "viewer";
        };
        AdminOperator: {
            /** Format: uuid */
            operatorId: string;
            email: string;
            displayName: string;
            /** @enum {string} */
            role: "owner" | "admin" | "designer" | "support" | "viewer";
            /** Format: date-time */
            createdAtUtc: string;
        };
        AdminOperatorList: {
            operators: components["schemas"]["AdminOperator"][];
        };
        AdminOrganization: {
            /** Format: uuid */
            organizationId: string;
            name: string;
            /** @enum {string} */
            billingStatus: "active" | "none" | "overdue";
            liveMonthlyActivePlayersCap: number | null;
            /** Format: date-time */
            createdAtUtc: string;
            /** Format: date-time */
            updatedAtUtc: string;
        };
        AdminOrganizationDetail: {
            /** Format: uuid */
            organizationId: string;
            name: string;
            /** @enum {string} */
            billingStatus: "active" | "none" | "overdue";
            liveMonthlyActivePlayersCap: number | null;
            /** Format: date-time */
            createdAtUtc: string;
            /** Format: date-time */
            updatedAtUtc: string;
            projects: components["schemas"]["AdminProject"][];
        };
        AdminOrganizationPage: {
            organizations: components["schemas"]["AdminOrganization"][];
            nextCursor: string | null;
        };
        AdminOrganizationUsage: {
            /** Format: uuid */
            organizationId: string;
            month: string;
            day: string;
            liveMonthlyActivePlayers: components["schemas"]["AdminUsageMeter"];
            requestsInFlight: {
                limit: number;
                refusedToday: number;
            };
            sandboxes: {
                /** Format: uuid */
                projectId: string;
                /** Format: uuid */
                environmentId: string;
                monthlyActivePlayers: components["schemas"]["AdminUsageMeter"];
                eventsToday: components["schemas"]["AdminUsageMeter"];
            }[];
        };
        AdminProject: {
            /** Format: uuid */
            projectId: string;
            /** Format: uuid */
            organizationId: string;
            name: string;
            /** Format: date-time */
            createdAtUtc: string;
            sandbox: components["schemas"]["AdminEnvironment"];
            live: components["schemas"]["AdminEnvironment"];
        };
        AdminRecentEvent: {
            id: string;
            /** Format: date-time */
            receivedAt: string;
            playerId: string | null;
            eventKey: string | null;
            accepted: boolean;
            eventId: string | null;
            errors: components["schemas"]["AdminRecentEventRefusal"][];
            properties: string | null;
            truncated: boolean;
        };
        AdminRecentEventRefusal: {
            code: string;
            message: string;
            path: string | null;
        };
        AdminRecentEventsPage: {
            items: components["schemas"]["AdminRecentEvent"][];
            watchedUntil: string | null;
            keeps: number;
        };
        AdminSession: {
            operator: {
                /** Format: uuid */
                id: string;
                email: string;
                displayName: string;
            };
            memberships: components["schemas"]["AdminMembership"][];
            csrfToken: string;
        };
        AdminSettledLeaderboardPeriod: {
            leaderboardKey: string;
            /** Format: date-time */
            periodStartsAtUtc: string;
            periodEndsAtUtc: string | null;
            participants: number;
        };
        AdminSignIn: {
            email: string;
            password: string;
        };
        AdminSupportAdjustment: {
            amount: number;
            reason: string;
        };
        AdminUpdateOperator: {
            /** @enum {string} */
            role: "owner" | "admin" | "designer" | "support" | "viewer";
        };
        AdminUpdateOrganization: {
            /** @enum {string} */
            billingStatus?: "active" | "none" | "overdue";
            liveMonthlyActivePlayersCap?: number | null;
        };
        AdminUsageMeter: {
            used: number;
            limit: number | null;
        };
        Content: {
            catalogItemKey: string;
            value: {
                /**
                 * @description A number value.
                 * @constant
                 */
                type: "number";
                /** @description The number. */
                value: number;
            } | {
                /**
                 * @description A text value.
                 * @constant
                 */
                type: "string";
                /** @description The text. */
                value: string;
            } | {
                /**
                 * @description A true/false value.
                 * @constant
                 */
                type: "boolean";
                /** @description The boolean. */
                value: boolean;
            };
        };
        ContentDefinition: {
            /** @description The catalog item the purchase grants (see GET /v1/player-items). */
            catalogItemKey: string;
            /** @description The typed value granted with it. */
            value: {
                /**
                 * @description A number value.
                 * @constant
                 */
                type: "number";
                /** @description The number. */
                value: number;
            } | {
                /**
                 * @description A text value.
                 * @constant
                 */
                type: "string";
                /** @description The text. */
                value: string;
            } | {
                /**
                 * @description A true/false value.
                 * @constant
                 */
                type: "boolean";
                /** @description The boolean. */
                value: boolean;
            };
        };
        CreatedWebhookEndpoint: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            environmentId: string;
            url: string;
            description: string;
            eventTypes: components["schemas"]["WebhookEventType"][];
            rankThreshold: number;
            /** @enum {string} */
            status: "active" | "paused";
            pausedReason: string | null;
            pausedAt: string | null;
            secretRotatedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            health: components["schemas"]["WebhookHealth"];
            secret: string;
        };
        CreateWebhook: {
            /** Format: uri */
            url: string;
            eventTypes: components["schemas"]["WebhookEventType"][];
            /** @default  */
            description?: string;
            /** @default 10 */
            rankThreshold?: number;
        };
        EligibilityCondition: {
            /** @description Holds when every condition holds. */
            all: components["schemas"]["EligibilityCondition"][];
        } | {
            /** @description Holds when one condition holds. */
            any: components["schemas"]["EligibilityCondition"][];
        } | {
            /** @description Holds when this condition does not. */
            not: components["schemas"]["EligibilityCondition"];
        } | {
            /** @description A player attribute (section playerAttributes). */
            attribute: string;
            /**
             * @description How the attribute compares with value; exists and notExists take no value.
             * @enum {string}
             */
            op: "eq" | "ne" | "in" | "notIn" | "gt" | "gte" | "lt" | "lte" | "exists" | "notExists";
            /** @description The value to compare with; a list for in and notIn. */
            value?: (string | number | boolean | null) | (string | number | boolean | null)[];
        };
        EnvironmentDiff: {
            /** Format: uuid */
            environmentId: string;
            dryRun: boolean;
            changed: boolean;
            changes: components["schemas"]["EnvironmentItemChange"][];
            warnings: {
                code: string;
                message: string;
                meta: {
                    [key: string]: unknown;
                };
            }[];
        };
        /**
         * engage environment file
         * @description Declarative definition of one environment. An absent section is left as it is.
         */
        EnvironmentFile: {
            /** @description Optional link to this JSON Schema, for editors. */
            $schema?: string;
            /**
             * @description Version of the file format; only 1 exists.
             * @default 1
             * @constant
             */
            version?: 1;
            /** @description When true, an unknown event or property is defined from its first occurrence. */
            discovery?: boolean;
            /** @description Event definitions. Events absent from the list are removed when the section is present. */
            events?: components["schemas"]["EventDefinition"][];
            /** @description Player attributes the environment accepts. Attributes absent from the list are removed when the section is present (values already stored on players are kept but no longer settable). */
            playerAttributes?: components["schemas"]["PlayerAttributeDefinition"][];
            /** @description Leaderboard definitions. Boards absent from the list are removed. */
            leaderboards?: components["schemas"]["LeaderboardDefinition"][];
            /** @description The shop: items in listing order and curated collections. Absent items and collections are removed. */
            marketplace?: {
                /**
                 * @description Items in listing order; items absent from the list are removed.
                 * @default []
                 */
                items?: components["schemas"]["MarketplaceItemDefinition"][];
                /**
                 * @description Curated collections of items; collections absent from the list are removed.
                 * @default []
                 */
                collections?: components["schemas"]["MarketplaceCollectionDefinition"][];
            };
            /** @description Mission definitions, in feed order. Missions absent from the list are removed. */
            missions?: components["schemas"]["MissionDefinition"][];
            /** @description Mission collections. Collections absent from the list are removed. */
            missionCollections?: components["schemas"]["MissionCollectionDefinition"][];
            /** @description Streak definitions. Streaks absent from the list are removed. */
            streaks?: components["schemas"]["StreakDefinition"][];
        };
        EnvironmentItemChange: {
            section: string;
            key: string;
            /** @enum {string} */
            change: "created" | "updated" | "unchanged" | "removed";
            fields: string[];
        };
        EventBatchRequest: {
            events: components["schemas"]["EventItem"][];
        };
        EventBatchResult: {
            accepted: number;
            rejected: number;
            results: components["schemas"]["EventItemResult"][];
        };
        EventDefinition: {
            /** @description The eventKey games send; missions, streaks and leaderboards name it. */
            key: string;
            /**
             * @description false refuses the event when it is sent.
             * @default true
             */
            active?: boolean;
            /** @description For people reading the definition; never shown to players. */
            description?: string;
            /** @description true on an event defined by discovery (traffic), as the file is read back; absent or false: declared. Applying a file without it declares the event. */
            discovered?: boolean;
            /**
             * @description The properties the event may carry, by name; an undeclared property is refused unless discovery is on.
             * @default {}
             */
            properties?: {
                [key: string]: components["schemas"]["PropertyDefinition"];
            };
        };
        EventItem: {
            eventKey: string;
            playerId: string;
            /**
             * Format: date-time
             * @description When the event happened (ISO-8601 with Z or an offset); receipt time when absent.
             */
            occurredAt?: string;
            /** @description Up to 16 properties. Numbers keep 8 decimal places and up to 20 digits before the point, exactly. */
            properties?: {
                [key: string]: string | number | boolean;
            };
            /** @description The player's IANA time zone (e.g. Europe/Paris); stored on the player. */
            timeZone?: string;
            /** @description Replays of the same key for this player and event are not applied twice. */
            idempotencyKey?: string;
        };
        EventItemError: {
            code: string;
            message: string;
            meta: {
                [key: string]: unknown;
            };
        };
        EventItemResult: {
            index: number;
            accepted: boolean;
            eventId: string | null;
            errors: components["schemas"]["EventItemError"][];
        };
        Leaderboard: {
            leaderboardKey: string;
            name: string;
            description: string | null;
            images: {
                [key: string]: string;
            };
            /** @enum {string} */
            scoreSource: "Event";
            aggregation: ("Sum" | "Max" | "Min" | "Count" | "Latest") | null;
            /** @enum {string} */
            rankOrder: "HighestFirst" | "LowestFirst";
            ranksTeams: boolean;
            period: {
                startsAtUtc: string | null;
                endsAtUtc: string | null;
            };
            isLocked: boolean;
            participants: number;
            me: components["schemas"]["LeaderboardStanding"] | null;
            league: components["schemas"]["LeaderboardLeague"] | null;
            team: components["schemas"]["LeaderboardTeam"] | null;
        };
        LeaderboardDefinition: {
            /** @description Stable key: the API names the definition by it, and progress is kept by it across edits. */
            key: string;
            /** @description Name shown to players: a text, or translations with a default locale. */
            name: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /** @description Description shown to players: a text, or translations with a default locale. */
            description?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /**
             * @description Image URLs by the game's own names (e.g. icon, banner), returned as they are.
             * @default {}
             */
            images?: {
                [key: string]: string;
            };
            /**
             * @description false switches it off: hidden from players, and nothing counts toward it.
             * @default true
             */
            active?: boolean;
            /** @description Which events score, and with which property. */
            scoreSource: components["schemas"]["LeaderboardScoreSource"];
            /**
             * @description How a player's scoring events in a period make their score: Sum, Max, Min, Count or Latest.
             * @default Sum
             * @enum {string}
             */
            aggregation?: "Sum" | "Max" | "Min" | "Count" | "Latest";
            /**
             * @description Which scores rank first.
             * @default HighestFirst
             * @enum {string}
             */
            rankOrder?: "HighestFirst" | "LowestFirst";
            /**
             * @description Largest Top a read may ask for.
             * @default 100
             */
            topSize?: number;
            /**
             * @description Decimal places scores are ranked and shown with (the durable record keeps them exact).
             * @default 0
             */
            decimals?: number;
            /** @description Who may see the board and score on it; absent: everyone. */
            eligibility?: components["schemas"]["EligibilityCondition"];
            /** @description Outside this window the board answers 404 and events do not score. */
            season?: {
                /**
                 * Format: date-time
                 * @description Start of the season (inclusive); absent: always started.
                 */
                startsAtUtc?: string;
                /**
                 * Format: date-time
                 * @description End of the season (exclusive); absent: never ends.
                 */
                endsAtUtc?: string;
            };
            /**
             * @description When the board resets into a new period.
             * @default {
             *       "reset": "None"
             *     }
             */
            period?: components["schemas"]["LeaderboardPeriodSchedule"];
            /**
             * @description Returned to players as it is (a game may show the board locked); changes nothing else.
             * @default false
             */
            isLocked?: boolean;
            /** @description Makes the board a league: tiers of groups, with promotion and relegation. */
            league?: components["schemas"]["LeagueDefinition"];
            /** @description Makes the board rank teams; a team's score is the sum of its members' scores. */
            team?: components["schemas"]["TeamDefinition"];
        };
        LeaderboardEntry: {
            rank: number;
            displayName: string | null;
            score: number;
            isMe: boolean;
            /** @enum {string} */
            movement?: "Promoted" | "Relegated" | "Stayed";
        };
        LeaderboardLeague: {
            tierKey: string;
            tierName: string | null;
            tierIndex: number;
            tierCount: number;
            group: number | null;
            groupSize: number;
            promote: number;
            relegate: number;
            movement: ("Promoted" | "Relegated" | "Stayed") | null;
            nextTierKey: string | null;
        };
        LeaderboardPeriodSchedule: {
            /**
             * @description None: one period for the whole season; Daily, Weekly (from Monday) and Monthly reset at 00:00 UTC; Custom: every everyMinutes from anchorUtc.
             * @default None
             * @enum {string}
             */
            reset?: "None" | "Daily" | "Weekly" | "Monthly" | "Custom";
            /** @description Length of a Custom period in minutes; required for Custom and only allowed there. */
            everyMinutes?: number;
            /**
             * Format: date-time
             * @description When the first Custom period starts (default 1970-01-01T00:00:00Z).
             */
            anchorUtc?: string;
        };
        LeaderboardScoreSource: {
            /**
             * @description Scores come from accepted events (the only source).
             * @constant
             */
            type: "Event";
            /** @description The event that scores; must be defined in events (or discovered). */
            event: string;
            /** @description The event's numeric property it scores with; not needed for Count. */
            property?: string;
            /** @description Lowest property value that scores (inclusive); an event below it does not score on this board. */
            minValue?: number;
            /** @description Highest property value that scores (inclusive); an event above it does not score on this board. */
            maxValue?: number;
        };
        LeaderboardStanding: {
            rank: number | null;
            score: number | null;
            displayName: string | null;
        };
        LeaderboardTeam: {
            teamKey: string | null;
            rank: number | null;
            score: number | null;
        };
        LeaderboardView: {
            leaderboard: components["schemas"]["Leaderboard"];
            top: components["schemas"]["LeaderboardEntry"][];
            around: components["schemas"]["LeaderboardEntry"][];
            isSettled: boolean;
            named: {
                rank: number;
                displayName: string | null;
                score: number;
                isMe: boolean;
                /** @enum {string} */
                movement?: "Promoted" | "Relegated" | "Stayed";
                playerId: string;
            }[] | null;
        };
        LeagueDefinition: {
            /** @description Players of one tier are split into groups of this size in the order they join the period. */
            groupSize: number;
            /** @description Lowest tier first; new players start in the lowest. */
            tiers: components["schemas"]["LeagueTier"][];
        };
        LeagueTier: {
            /** @description Stable key of the tier, unique within the league. */
            key: string;
            /** @description Name shown to players: a text, or translations with a default locale. */
            name?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /**
             * @description How many of each group move up when a period settles (ignored on the highest tier).
             * @default 0
             */
            promote?: number;
            /**
             * @description How many of each group move down when a period settles (ignored on the lowest tier).
             * @default 0
             */
            relegate?: number;
        };
        MarketplaceCollection: {
            key: string;
            name: string;
            description: string | null;
            images: {
                [key: string]: string;
            };
            items: components["schemas"]["MarketplaceItem"][];
        };
        MarketplaceCollectionDefinition: {
            /** @description Stable key: the API names the definition by it, and progress is kept by it across edits. */
            key: string;
            /** @description Name shown to players: a text, or translations with a default locale. */
            name: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /** @description Description shown to players: a text, or translations with a default locale. */
            description?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /**
             * @description Image URLs by the game's own names (e.g. icon, banner), returned as they are.
             * @default {}
             */
            images?: {
                [key: string]: string;
            };
            /**
             * @description false switches it off: hidden from players, and nothing counts toward it.
             * @default true
             */
            active?: boolean;
            /** @description Item keys in the order the collection shows them. */
            items: string[];
        };
        MarketplaceItem: {
            marketplaceItemKey: string;
            name: string;
            description: string | null;
            images: {
                [key: string]: string;
            };
            priceInPoints: number;
            contents: components["schemas"]["Content"][];
            /** @enum {string} */
            status: "Purchasable" | "NotYetAvailable" | "Expired" | "SoldOut" | "LimitReached" | "NotEligible";
            isPurchasable: boolean;
            occurrenceNumber: number;
            remainingStock: number | null;
            remainingPurchases: number | null;
            availableUntilUtc: string | null;
        };
        MarketplaceItemDefinition: {
            /** @description Stable key: the API names the definition by it, and progress is kept by it across edits. */
            key: string;
            /** @description Name shown to players: a text, or translations with a default locale. */
            name: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /** @description Description shown to players: a text, or translations with a default locale. */
            description?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /**
             * @description Image URLs by the game's own names (e.g. icon, banner), returned as they are.
             * @default {}
             */
            images?: {
                [key: string]: string;
            };
            /**
             * @description false switches the item off: it is hidden and cannot be bought.
             * @default true
             */
            active?: boolean;
            /** @description Price in whole points; 0: free. */
            priceInPoints: number;
            /**
             * @description What one purchase grants the player.
             * @default []
             */
            contents?: components["schemas"]["ContentDefinition"][];
            /**
             * Format: date-time
             * @description On sale from this instant (inclusive).
             */
            availableFromUtc?: string;
            /**
             * Format: date-time
             * @description On sale until this instant (exclusive).
             */
            availableUntilUtc?: string;
            /** @description The item recurs: occurrence n runs from availableFromUtc (or 1970-01-01) + (n-1) periods; stock and purchase limits restart with each occurrence. */
            recurrence?: {
                /** @description Length of one occurrence, in hours. */
                everyHours: number;
            };
            /** @description Units on sale per occurrence, for all players; absent: unlimited. */
            stock?: number;
            /** @description Purchases one player may make per occurrence; absent: unlimited. */
            purchaseLimit?: number;
            /** @description Who may buy it (player attributes); absent: everyone. */
            eligibility?: components["schemas"]["EligibilityCondition"];
            /**
             * @description true hides the item from players who are not eligible (404) instead of showing it as not purchasable.
             * @default false
             */
            hideWhenNotEligible?: boolean;
            /**
             * @description CollectionsOnly: not listed by the main shop, only in collections and by key.
             * @default Shop
             * @enum {string}
             */
            visibility?: "Shop" | "CollectionsOnly";
        };
        Milestone: {
            threshold: number;
            isReached: boolean;
            rewards: components["schemas"]["Reward"][];
            repeatsAfterReset: boolean;
        };
        MilestoneDefinition: {
            /** @description The streak length (in periods) that reaches the milestone. */
            threshold: number;
            /**
             * @description Granted when the milestone is reached.
             * @default []
             */
            rewards?: components["schemas"]["RewardDefinition"][];
            /**
             * @description true: reached (and rewarded) again in every new run; false: once per player.
             * @default false
             */
            repeatsAfterReset?: boolean;
        };
        Mission: {
            missionKey: string;
            name: string;
            description: string | null;
            images: {
                [key: string]: string;
            };
            /** @enum {string} */
            status: "Available" | "InProgress" | "Completed" | "Expired";
            /** @enum {string} */
            optInMode: "Automatic" | "RequiresAcceptance";
            isAccepted: boolean;
            occurrenceNumber: number;
            objectives: components["schemas"]["Objective"][];
            rewards: components["schemas"]["Reward"][];
            startedAtUtc: string | null;
            acceptedAtUtc: string | null;
            completedAtUtc: string | null;
            availableUntilUtc: string | null;
        };
        MissionCollection: {
            /** Format: uuid */
            collectionId: string;
            key: string;
            name: string;
            description: string | null;
            images: {
                [key: string]: string;
            };
            missions: components["schemas"]["Mission"][];
        };
        MissionCollectionDefinition: {
            /** @description Stable key: the API names the definition by it, and progress is kept by it across edits. */
            key: string;
            /** @description Name shown to players: a text, or translations with a default locale. */
            name: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /** @description Description shown to players: a text, or translations with a default locale. */
            description?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /**
             * @description Image URLs by the game's own names (e.g. icon, banner), returned as they are.
             * @default {}
             */
            images?: {
                [key: string]: string;
            };
            /**
             * @description false switches it off: hidden from players, and nothing counts toward it.
             * @default true
             */
            active?: boolean;
            /** @description Mission keys in the collection's order; each must be a defined mission. */
            missions: string[];
        };
        MissionDefinition: {
            /** @description Stable key: the API names the definition by it, and progress is kept by it across edits. */
            key: string;
            /** @description Name shown to players: a text, or translations with a default locale. */
            name: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /** @description Description shown to players: a text, or translations with a default locale. */
            description?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /**
             * @description Image URLs by the game's own names (e.g. icon, banner), returned as they are.
             * @default {}
             */
            images?: {
                [key: string]: string;
            };
            /**
             * @description false switches it off: hidden from players, and nothing counts toward it.
             * @default true
             */
            active?: boolean;
            /**
             * @description false: only in collections (and by key), not in the list of the player's missions.
             * @default true
             */
            listed?: boolean;
            /** @description What the player does; the mission completes when every objective reaches its target. */
            objectives: components["schemas"]["ObjectiveDefinition"][];
            /**
             * @description true: an objective counts only once every objective before it is satisfied.
             * @default false
             */
            sequential?: boolean;
            /**
             * @description Granted once when the mission completes.
             * @default []
             */
            rewards?: components["schemas"]["RewardDefinition"][];
            /**
             * Format: date-time
             * @description Before this instant the mission is not shown and nothing counts.
             */
            availableFromUtc?: string;
            /**
             * Format: date-time
             * @description The deadline: afterwards the mission is gone (404) and no event counts toward it.
             */
            availableUntilUtc?: string;
            /** @description Who may see and enter the mission; absent: everyone. */
            eligibility?: components["schemas"]["EligibilityCondition"];
            /**
             * @description Automatic: events count once the player read the mission; RequiresAcceptance: once they accepted it.
             * @default Automatic
             * @enum {string}
             */
            optInMode?: "Automatic" | "RequiresAcceptance";
            /**
             * @description When the mission starts again: never (none), each UTC day, each ISO week, or after the player completed it.
             * @default none
             * @enum {string}
             */
            repeat?: "none" | "daily" | "weekly" | "afterCompletion";
        };
        Objective: {
            /** Format: uuid */
            objectiveId: string;
            description: string | null;
            order: number;
            isSatisfied: boolean;
            progress: components["schemas"]["Progress"];
        };
        ObjectiveDefinition: {
            /** @description Stable key of the objective within its mission: progress is kept by key across edits. */
            key: string;
            /** @description Description shown to players: a text, or translations with a default locale. */
            description?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /** @description The event that counts; must be defined in events (or discovered). */
            event: string;
            /**
             * @description The event counts only when every filter holds.
             * @default []
             */
            filters?: components["schemas"]["PropertyFilter"][];
            /**
             * @description How matching events count toward the target.
             * @default {
             *       "kind": "count"
             *     }
             */
            measure?: {
                /**
                 * @description Each matching event adds 1.
                 * @constant
                 */
                kind: "count";
            } | {
                /**
                 * @description Adds the value of a number property.
                 * @constant
                 */
                kind: "sum";
                /** @description The property of the objective's event measured; must be defined for that event. */
                property: string;
            } | {
                /**
                 * @description The largest value of a number property seen.
                 * @constant
                 */
                kind: "max";
                /** @description The property of the objective's event measured; must be defined for that event. */
                property: string;
            } | {
                /**
                 * @description The number of different values of a property (e.g. levels, maps).
                 * @constant
                 */
                kind: "distinct";
                /** @description The property of the objective's event measured; must be defined for that event. */
                property: string;
            } | {
                /**
                 * @description Satisfied by one matching event (progress kind Boolean).
                 * @constant
                 */
                kind: "occurs";
            };
            /**
             * @description Value to reach (ignored by occurs).
             * @default 1
             */
            target?: number;
        };
        Player: {
            playerId: string;
            timeZone: string | null;
            attributes: {
                [key: string]: string | number | boolean;
            };
        };
        PlayerAttributeDefinition: {
            /** @description The attribute's name, as games set it and eligibility conditions name it. */
            key: string;
            /**
             * @description The JSON type a value must have.
             * @enum {string}
             */
            type: "string" | "number" | "boolean" | "dateTime";
            /**
             * @description false refuses setting the attribute.
             * @default true
             */
            active?: boolean;
            /** @description For people reading the definition; never shown to players. */
            description?: string;
        };
        PlayerItem: {
            catalogItemKey: string;
            value: ({
                /**
                 * @description A number value.
                 * @constant
                 */
                type: "number";
                /** @description The number. */
                value: number;
            } | {
                /**
                 * @description A text value.
                 * @constant
                 */
                type: "string";
                /** @description The text. */
                value: string;
            } | {
                /**
                 * @description A true/false value.
                 * @constant
                 */
                type: "boolean";
                /** @description The boolean. */
                value: boolean;
            }) | null;
            /** @enum {string} */
            source: "Purchase" | "Reward";
            sourceRef: string;
            transactionId: string | null;
            /** Format: date-time */
            grantedAtUtc: string;
        };
        PointsAdjustmentResult: {
            /** Format: uuid */
            transactionId: string;
            amount: number;
            balance: number;
        };
        PointsBalance: {
            playerId: string;
            balance: number;
            updatedAtUtc: string | null;
        };
        ProblemDocument: {
            title: string;
            status: number;
            detail: string;
            instance: string;
            code: string;
            errors: {
                code: string;
                message: string;
                meta: {
                    [key: string]: unknown;
                };
            }[];
            traceId: string;
        };
        Progress: {
            /** @enum {string} */
            kind: "TowardTarget" | "Boolean";
            actual: number | null;
            operator: "GreaterThanOrEqual" | null;
            target: number | null;
            fraction: number | null;
        };
        PropertyDefinition: {
            /**
             * @description The JSON type a value must have (dateTime: an ISO 8601 instant with offset).
             * @enum {string}
             */
            type: "string" | "number" | "boolean" | "dateTime";
            /**
             * @description true refuses an event without this property.
             * @default false
             */
            required?: boolean;
        };
        PropertyFilter: {
            /** @description A property of the filtered event; must be defined for that event. */
            property: string;
            /**
             * @description How the event's value compares with value.
             * @enum {string}
             */
            op: "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "in" | "notIn";
            /** @description The value to compare with; a list for in and notIn, one value for the other operators. */
            value: string | number | boolean | (string | number | boolean)[];
        };
        PurchaseResult: {
            /** Format: uuid */
            purchaseId: string;
            transactionId: string | null;
            playerId: string;
            marketplaceItemKey: string;
            occurrenceNumber: number;
            priceInPoints: number;
            contents: components["schemas"]["Content"][];
            balance: number;
            /** Format: date-time */
            purchasedAtUtc: string;
        };
        QualifyingEvent: {
            /** @description The event that qualifies; must be defined in events (or discovered). */
            event: string;
            /**
             * @description The event qualifies only when every filter holds.
             * @default []
             */
            filters?: components["schemas"]["PropertyFilter"][];
        };
        Reward: {
            /** @enum {string} */
            kind: "Points" | "CatalogItem";
            pointsAmount: number | null;
            catalogItemKey: string | null;
            catalogItemValue: number | string | boolean | null;
        };
        RewardDefinition: {
            /** @description Points credited to the player's balance. */
            points: number;
        } | {
            /** @description A catalog item granted to the player (see GET /v1/player-items). */
            catalogItem: string;
            /**
             * @description The value granted: a number is added to what the player holds, other values replace it.
             * @default 1
             */
            value?: number | string | boolean;
        };
        RotatedWebhookSecret: {
            secret: string;
            previousSecretExpiresAt: string | null;
        };
        RotateWebhookSecret: {
            /** @default 86400 */
            overlapSeconds?: number;
        };
        SetPlayerAttributesRequest: {
            playerId: string;
            /** @description 1 to 100 attributes to set; all are written or none. */
            attributes: {
                [key: string]: string | number | boolean | null;
            };
            /** @description The player's IANA time zone (e.g. Europe/Paris). */
            timeZone?: string;
        };
        Streak: {
            streakKey: string;
            name: string;
            description: string | null;
            images: {
                [key: string]: string;
            };
            /** @enum {string} */
            status: "NotStarted" | "Active" | "AtRisk" | "Broken";
            isLocked: boolean;
            currentCount: number;
            longestCount: number;
            lastQualifyingDate: string | null;
            todayCounts: boolean;
            runExpiresAtUtc: string | null;
            nextMilestoneThreshold: number | null;
            milestones: components["schemas"]["Milestone"][];
        };
        StreakDefinition: {
            /** @description Stable key: the API names the definition by it, and progress is kept by it across edits. */
            key: string;
            /** @description Name shown to players: a text, or translations with a default locale. */
            name: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /** @description Description shown to players: a text, or translations with a default locale. */
            description?: string | {
                /** @description The locale shown when the request asks for none, or for one without a translation. */
                defaultLocale: string;
                /** @description The text by locale (e.g. en, pt-BR); must include defaultLocale. */
                translations: {
                    [key: string]: string;
                };
            };
            /**
             * @description Image URLs by the game's own names (e.g. icon, banner), returned as they are.
             * @default {}
             */
            images?: {
                [key: string]: string;
            };
            /**
             * @description false switches it off: hidden from players, and nothing counts toward it.
             * @default true
             */
            active?: boolean;
            /** @description Any of these events qualifies. */
            events: components["schemas"]["QualifyingEvent"][];
            /**
             * @description Qualifying events needed in one period for the period to count.
             * @default 1
             */
            eventsPerPeriod?: number;
            /**
             * @description daily: the player's local day; weekly: the player's local ISO week (Monday to Sunday).
             * @default daily
             * @enum {string}
             */
            period?: "daily" | "weekly";
            /**
             * @description Streak lengths that grant rewards; each threshold once.
             * @default []
             */
            milestones?: components["schemas"]["MilestoneDefinition"][];
            /** @description Who may see the streak and count toward it; absent: everyone. */
            eligibility?: components["schemas"]["EligibilityCondition"];
            /**
             * Format: date-time
             * @description Before this instant the streak is shown locked (isLocked) and nothing counts.
             */
            availableFromUtc?: string;
        };
        TeamDefinition: {
            /** @description The scored event's string property naming the player's team; the first one in a period fixes it. */
            property: string;
        };
        UpdateWebhook: {
            /** Format: uri */
            url?: string;
            eventTypes?: components["schemas"]["WebhookEventType"][];
            description?: string;
            rankThreshold?: number;
            /** @enum {string} */
            status?: "active" | "paused";
        };
        WebhookDelivery: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            webhookId: string;
            eventType: string;
            playerId: string | null;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            nextAttemptAt: string | null;
            lastAttemptAt: string | null;
            responseStatus: number | null;
            responseTimeMs: number | null;
            lastError: string | null;
            /** Format: date-time */
            createdAt: string;
            payload: {
                [key: string]: unknown;
            };
        };
        WebhookDeliveryPage: {
            items: components["schemas"]["WebhookDelivery"][];
            nextCursor: string | null;
        };
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            environmentId: string;
            url: string;
            description: string;
            eventTypes: components["schemas"]["WebhookEventType"][];
            rankThreshold: number;
            /** @enum {string} */
            status: "active" | "paused";
            pausedReason: string | null;
            pausedAt: string | null;
            secretRotatedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            health: components["schemas"]["WebhookHealth"];
        };
        WebhookEndpointList: {
            items: components["schemas"]["WebhookEndpoint"][];
        };
        /** @enum {string} */
        WebhookEventType: "mission.completed" | "milestone.reached" | "streak.broken" | "purchase.made" | "points.adjusted" | "leaderboard.period_settled" | "leaderboard.rank_reached";
        WebhookHealth: {
            lastDeliveryAt: string | null;
            lastStatus: ("delivered" | "failed") | null;
            consecutiveFailures: number;
            pendingDeliveries: number;
        };
        WebhookPayloadLeaderboardPeriodSettled: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "leaderboard.period_settled";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                playerId: string;
                leaderboardKey: string;
                /** Format: date-time */
                periodStartsAt: string;
                periodEndsAt: string | null;
                finalRank: number;
                score: string;
                tierKey: string | null;
                groupNumber: number | null;
                leagueMove: ("Promoted" | "Relegated" | "Stayed") | null;
                nextTierKey: string | null;
                /** Format: date-time */
                settledAt: string;
            };
        };
        WebhookPayloadLeaderboardRankReached: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "leaderboard.rank_reached";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                playerId: string;
                leaderboardKey: string;
                /** Format: date-time */
                periodStartsAt: string;
                periodEndsAt: string | null;
                rank: number;
                rankThreshold: number;
                score: string;
                /** Format: date-time */
                settledAt: string;
            };
        };
        WebhookPayloadMilestoneReached: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "milestone.reached";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                playerId: string;
                streakKey: string;
                runNumber: number;
                milestoneThreshold: number;
                /** Format: date-time */
                reachedAt: string;
            };
        };
        WebhookPayloadMissionCompleted: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "mission.completed";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                playerId: string;
                missionKey: string;
                occurrenceNumber: number;
                /** Format: date-time */
                completedAt: string;
            };
        };
        WebhookPayloadPointsAdjusted: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "points.adjusted";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                playerId: string;
                transactionId: string;
                amount: number;
                balanceAfter: number;
                reason: string | null;
                /** Format: date-time */
                adjustedAt: string;
            };
        };
        WebhookPayloadPurchaseMade: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "purchase.made";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                playerId: string;
                purchaseId: string;
                transactionId: string | null;
                itemKey: string;
                occurrenceNumber: number;
                pointsSpent: number;
                balanceAfter: number;
                contents: {
                    catalogItemKey: string;
                    value: number | string | boolean;
                }[];
                /** Format: date-time */
                purchasedAt: string;
            };
        };
        WebhookPayloadStreakBroken: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "streak.broken";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                playerId: string;
                streakKey: string;
                runNumber: number;
                finalCount: number | null;
                lastCountedLocalDate: string | null;
                /** Format: date-time */
                brokenAt: string;
            };
        };
        WebhookPayloadWebhookPing: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "webhook.ping";
            /** Format: date-time */
            timestamp: string;
            /** Format: uuid */
            environmentId: string;
            data: {
                /** Format: uuid */
                webhookId: string;
                message: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listMissions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    playerId: string;
                    languageCode?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mission"][];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getMission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                missionKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    playerId: string;
                    languageCode?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mission"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `mission.not_found`: No mission with that key for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getMissionCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectionKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    playerId: string;
                    languageCode?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MissionCollection"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `mission_collection.not_found`: No mission collection with that key. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    acceptMission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                missionKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    playerId: string;
                    languageCode?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mission"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `mission.not_found`: No mission with that key for this player. (nothing changes on its own; fix the request or the setup)
             *     - `mission.not_locked_in`: The player was never entered into the mission. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `mission.window_closed`: The mission is no longer open.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listMarketplaceItems: {
        parameters: {
            query: {
                PlayerId: string;
                LanguageCode?: string;
                Take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketplaceItem"][];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getMarketplaceItem: {
        parameters: {
            query: {
                PlayerId: string;
                LanguageCode?: string;
            };
            header?: never;
            path: {
                marketplaceItemKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketplaceItem"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `marketplace_item.not_found`: No marketplace item with that key. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getMarketplaceCollection: {
        parameters: {
            query: {
                PlayerId: string;
                LanguageCode?: string;
            };
            header?: never;
            path: {
                collectionKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketplaceCollection"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `marketplace_collection.not_found`: No marketplace collection with that key. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    purchaseMarketplaceItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                marketplaceItemKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    playerId: string;
                    idempotencyKey?: string;
                    expectedPriceInPoints?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when the answer is the stored outcome of an earlier request with the same idempotency key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PurchaseResult"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `marketplace_item.not_eligible`: This player may not buy the marketplace item. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `marketplace_item.not_found`: No marketplace item with that key. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `marketplace_item.inactive`: The marketplace item is switched off.
             *     - `marketplace_item.not_available`: The marketplace item is not on sale now.
             *     - `marketplace_item.out_of_stock`: The marketplace item is sold out. Nothing was charged.
             *     - `marketplace_item.purchase_limit_reached`: The player has bought this item as many times as allowed. Nothing was charged.
             *     - `marketplace_item.price_changed`: The price of the marketplace item is not the one expected. Nothing was charged.
             *     - `marketplace_purchase.idempotency_key_conflict`: The idempotency key was already used for a different listing.
             *     - `points.insufficient_balance`: The debit is larger than the balance; a balance never goes below zero. Nothing was written.
             *     - `points.concurrent_update`: Other requests changed this balance at the same instant. Nothing was written; send the request again. (nothing written; send the same request again)
             */
            409: {
                headers: {
                    /** @description Present when the answer is the stored outcome of an earlier request with the same idempotency key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getPointsBalance: {
        parameters: {
            query: {
                PlayerId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PointsBalance"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    adjustPoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    playerId: string;
                    amount: number;
                    reason?: string;
                    idempotencyKey?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when the answer is the stored outcome of an earlier request with the same idempotency key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PointsAdjustmentResult"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `points_adjustment.amount_zero`: The amount must not be zero: send a positive amount to credit, a negative one to debit. (nothing changes on its own; fix the request or the setup)
             *     - `points_adjustment.reason_too_long`: The reason must be at most 500 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `points_adjustment.idempotency_key_conflict`: The idempotency key was already used by a purchase or for a different amount.
             *     - `points.insufficient_balance`: The debit is larger than the balance; a balance never goes below zero. Nothing was written.
             *     - `points.concurrent_update`: Other requests changed this balance at the same instant. Nothing was written; send the request again. (nothing written; send the same request again)
             */
            409: {
                headers: {
                    /** @description Present when the answer is the stored outcome of an earlier request with the same idempotency key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listPlayerItems: {
        parameters: {
            query: {
                PlayerId: string;
                Take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerItem"][];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getLeaderboard: {
        parameters: {
            query: {
                PlayerId: string;
                LanguageCode?: string;
                Top?: number;
                Around?: number;
                Previous?: "true" | "false";
                PlayerIds?: string | string[];
            };
            header?: never;
            path: {
                leaderboardKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaderboardView"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `leaderboard.not_found`: No leaderboard with that key for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listStreaks: {
        parameters: {
            query: {
                PlayerId: string;
                LanguageCode?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Streak"][];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getStreak: {
        parameters: {
            query: {
                PlayerId: string;
                LanguageCode?: string;
            };
            header?: never;
            path: {
                streakKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Streak"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `streak.not_found`: No streak with that key for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    sendEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventBatchRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventBatchResult"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `event_batch.empty`: The batch holds no events. (nothing changes on its own; fix the request or the setup)
             *     - `event_batch.too_large`: A batch holds at most 1,000 events. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `event_batch.concurrent_update`: Other requests were creating the same players at the same instant; nothing was written. Send the batch again. (nothing written; send the same request again)
             *     - `sandbox.monthly_active_players_exceeded`: This Sandbox has seen its 100th player this month.
             *     - `sandbox.daily_event_limit_exceeded`: This Sandbox has taken its 10,000th event today.
             *     - `monthly_mau_limit_exceeded`: The organization's cap on monthly active players is reached.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    setPlayerAttributes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPlayerAttributesRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Player"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_missing`: The request does not name a player. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `player.time_zone_invalid`: timeZone is not an IANA time zone name. (nothing changes on its own; fix the request or the setup)
             *     - `player_attribute.type_mismatch`: The value is not of the attribute’s type. (nothing changes on its own; fix the request or the setup)
             *     - `player_attribute.value_too_long`: The text is longer than 2,000 characters. (nothing changes on its own; fix the request or the setup)
             *     - `player_attribute.attributes_missing`: The request sets no attribute. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `auth.api_key_invalid`: The API key is missing, malformed, unknown or revoked. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Payment Required:
             *
             *     - `billing_required`: Live keys need active billing on the organization.
             *     - `billing_payment_overdue`: The organization's last payment failed; Live keys are paused.
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project_environment.not_found`: The environment behind the key did not load. (nothing changes on its own; fix the request or the setup)
             *     - `player_attribute.not_found`: No attribute with that key is defined. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `player_attribute.inactive`: The attribute is switched off.
             *     - `player_attribute.concurrent_update`: Other requests kept writing this player's attributes; nothing was written. Send it again. (nothing written; send the same request again)
             *     - `sandbox.monthly_active_players_exceeded`: This Sandbox has seen its 100th player this month.
             *     - `sandbox.daily_event_limit_exceeded`: This Sandbox has taken its 10,000th event today.
             *     - `monthly_mau_limit_exceeded`: The organization's cap on monthly active players is reached.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `tenant.too_many_concurrent_requests`: Too many requests of the organization are in flight; send fewer at once. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    settleSandboxLeaderboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
                leaderboardKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSettledLeaderboardPeriod"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `leaderboard.settle_sandbox_only`: Only Sandbox environments settle a leaderboard on demand. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `leaderboard.not_found`: No leaderboard with that key for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listOrganizations: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page's `nextCursor`. */
                after?: string;
                /** @description Only the organization of this name. */
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOrganizationPage"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    createOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateOrganization"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOrganization"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOrganizationDetail"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminUpdateOrganization"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOrganization"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getOrganizationUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOrganizationUsage"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateProject"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminProject"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminProject"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `project.not_found`: No project with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminApiKeyList"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AdminCreateApiKey"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminCreatedApiKey"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                apiKeyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminApiKey"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `api_key.not_found`: No API key with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getEnvironmentDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentFile"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    applyEnvironmentDefinition: {
        parameters: {
            query?: {
                /** @description Answer the difference the file would make, changing nothing. */
                dryRun?: boolean;
            };
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnvironmentFile"];
            };
        };
        responses: {
            /** @description The difference (applied unless dryRun). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentDiff"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `definition.unknown_event`: The file names an event it does not define (`meta.path`, `meta.closest`). (nothing changes on its own; fix the request or the setup)
             *     - `definition.unknown_property`: The file names a property its event does not define (`meta.path`, `meta.closest`). (nothing changes on its own; fix the request or the setup)
             *     - `definition.unknown_mission`: A collection names a mission the file does not define (`meta.path`, `meta.closest`). (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getEnvironmentFileSchemaSignedIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/schema+json": Record<string, never>;
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSession"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminSignIn"];
            };
        };
        responses: {
            /** @description Signed in; `Set-Cookie: engage_session=…; HttpOnly; SameSite=Strict; Path=/`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSession"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.sign_in_failed`: The email or the password is wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `admin.too_many_sign_in_attempts`: Too many failed sign-ins for this email from this address, or from this address; wait, then try again. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listOperators: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOperatorList"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminInvitationList"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    inviteOperator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCreateInvitation"];
            };
        };
        responses: {
            /** @description Invited. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminCreatedInvitation"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `operator.already_member`: The operator already belongs to the organization.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             *     - `invitation.not_found`: No pending invitation with that id or token for this operator: it may have lapsed or been answered. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listMyInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminInvitationList"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Joined. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMembership"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `invitation.not_found`: No pending invitation with that id or token for this operator: it may have lapsed or been answered. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `operator.already_member`: The operator already belongs to the organization.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    declineInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Declined. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `invitation.not_found`: No pending invitation with that id or token for this operator: it may have lapsed or been answered. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    acceptInvitationWithToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminAcceptInvitation"];
            };
        };
        responses: {
            /** @description Joined; sign in with the email and password. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMembership"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `operator.password_common`: The password is on a list of common or breached passwords: choose another. (nothing changes on its own; fix the request or the setup)
             *     - `operator.password_contains_email`: The password contains the account's email or its local part: choose another. (nothing changes on its own; fix the request or the setup)
             *     - `operator.password_repetitive`: The password is a few characters repeated: choose another. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.sign_in_failed`: The email or the password is wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `invitation.not_found`: No pending invitation with that id or token for this operator: it may have lapsed or been answered. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `operator.already_member`: The operator already belongs to the organization.
             *     - `invitation.concurrent_update`: Another invitation of the email created its account meanwhile: send the request again (with that account's password). (nothing written; send the same request again)
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Too Many Requests:
             *
             *     - `admin.too_many_sign_in_attempts`: Too many failed sign-ins for this email from this address, or from this address; wait, then try again. (nothing written; wait for Retry-After, then resend (send fewer at once))
             */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    removeOperator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
                operatorId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `operator.last_owner`: The organization would be left without an Owner.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    changeOperatorRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationId: string;
                operatorId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminUpdateOperator"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOperator"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `operator.last_owner`: The organization would be left without an Owner.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page's `nextCursor`. */
                after?: string;
                /** @description `oldest` first (default) or `newest` first. */
                order?: "oldest" | "newest";
                /** @description Only the writes that named this environment. */
                environmentId?: string;
                /** @description Only the writes of the operator with this email (not case-sensitive). */
                operatorEmail?: string;
                /** @description Only the writes whose route, as registered and recorded (`/api-keys/:apiKeyId`), contains this text. */
                route?: string;
                /** @description Only the writes made at this time or later (RFC 3339, with its offset). */
                from?: string;
                /** @description Only the writes made before this time (RFC 3339, with its offset); later than `from`. */
                to?: string;
            };
            header?: never;
            path: {
                organizationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAuditLogPage"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listDefinitionHistory: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page's `nextCursor`. */
                after?: string;
            };
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAuditLogPage"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `organization.not_found`: No organization with that id. (nothing changes on its own; fix the request or the setup)
             *     - `operator.not_found`: No operator with that id in the organization. (nothing changes on its own; fix the request or the setup)
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getEnvironmentPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
                /** @description The game's own id for the player. */
                playerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Player"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getEnvironmentPlayerPoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
                /** @description The game's own id for the player. */
                playerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PointsBalance"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listEnvironmentPlayerJournal: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `nextBefore` of the previous page. */
                before?: number;
            };
            header?: never;
            path: {
                environmentId: string;
                /** @description The game's own id for the player. */
                playerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminJournalPage"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listEnvironmentPlayerMissions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
                /** @description The game's own id for the player. */
                playerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mission"][];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listEnvironmentPlayerStreaks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
                /** @description The game's own id for the player. */
                playerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Streak"][];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    adjustEnvironmentPlayerPoints: {
        parameters: {
            query?: never;
            header: {
                /** @description A new key per adjustment, the same key when the same adjustment is sent again. */
                "Idempotency-Key": string;
            };
            path: {
                environmentId: string;
                /** @description The game's own id for the player. */
                playerId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminSupportAdjustment"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PointsAdjustmentResult"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `points_adjustment.amount_zero`: The amount must not be zero: send a positive amount to credit, a negative one to debit. (nothing changes on its own; fix the request or the setup)
             *     - `points_adjustment.reason_too_long`: The reason must be at most 500 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `points.insufficient_balance`: The debit is larger than the balance; a balance never goes below zero. Nothing was written.
             *     - `points.concurrent_update`: Other requests changed this balance at the same instant. Nothing was written; send the request again. (nothing written; send the same request again)
             *     - `points_adjustment.idempotency_key_conflict`: The idempotency key was already used by a purchase or for a different amount.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getEnvironmentLeaderboard: {
        parameters: {
            query: {
                PlayerId: string;
                Top?: number;
                Around?: number;
                Previous?: boolean;
            };
            header?: never;
            path: {
                environmentId: string;
                leaderboardKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminLeaderboardView"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `player.not_found`: Nothing has ever been sent for this player. (nothing changes on its own; fix the request or the setup)
             *     - `leaderboard.not_found`: No leaderboard with that key for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listEnvironmentLeaderboardPeriods: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                environmentId: string;
                leaderboardKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminBoardPeriods"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `player.external_id_too_long`: The player id is longer than 200 characters. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             *     - `leaderboard.not_found`: No leaderboard with that key for this player. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Internal Server Error:
             *
             *     - `server.unexpected`: An unexpected error occurred. Retry with backoff. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            500: {
                headers: {
                    /** @description Present when the failure is an outage expected to pass (Kafka not acknowledging events): seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listRecentEvents: {
        parameters: {
            query?: {
                outcome?: "accepted" | "refused";
                playerId?: string;
                /** @description Only items recorded after this `id` of an earlier answer (what a poll has not seen). */
                after?: string;
                limit?: number;
                /** @description true: record accepted items too for a while (the debugger is open). */
                watch?: "true" | "false";
            };
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminRecentEventsPage"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Service Unavailable:
             *
             *     - `recent_events.unavailable`: The recent events cannot be read right now (their store is unreachable). Try again shortly. (retry with backoff, with an idempotency key where the endpoint takes one)
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `environment.not_found`: No environment with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Conflict:
             *
             *     - `webhook.too_many_endpoints`: The environment has the most webhook endpoints allowed; delete one first.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `webhook.not_found`: No webhook endpoint with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `webhook.not_found`: No webhook endpoint with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhook"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `webhook.not_found`: No webhook endpoint with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateWebhookSecret"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedWebhookSecret"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `webhook.not_found`: No webhook endpoint with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "delivered" | "failed";
                limit?: number;
                /** @description The previous page's `nextCursor`. */
                cursor?: string;
            };
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `webhook.not_found`: No webhook endpoint with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `webhook.not_found`: No webhook endpoint with that id. (nothing changes on its own; fix the request or the setup)
             *     - `webhook_delivery.not_found`: No delivery with that id for this webhook endpoint. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /**
             * @description Bad Request:
             *
             *     - `validation.request`: The request is invalid; each refused field is listed in errors. (nothing changes on its own; fix the request or the setup)
             *     - `validation.<field>`: the named field is refused.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Unauthorized:
             *
             *     - `admin.unauthorized`: The admin token is missing or wrong. (nothing changes on its own; fix the request or the setup)
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Forbidden:
             *
             *     - `admin.forbidden`: The operator's role in the organization does not allow this (`meta.requiredRole`). (nothing changes on its own; fix the request or the setup)
             *     - `admin.csrf_failed`: A write made with the session cookie needs the session's X-CSRF-Token header. (nothing changes on its own; fix the request or the setup)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
            /**
             * @description Not Found:
             *
             *     - `webhook.not_found`: No webhook endpoint with that id. (nothing changes on its own; fix the request or the setup)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDocument"];
                };
            };
        };
    };
    getEnvironmentFileSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/schema+json": Record<string, never>;
                };
            };
        };
    };
    webhook_mission_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadMissionCompleted"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_milestone_reached: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadMilestoneReached"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_streak_broken: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadStreakBroken"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_purchase_made: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadPurchaseMade"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_points_adjusted: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadPointsAdjusted"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_leaderboard_period_settled: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadLeaderboardPeriodSettled"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_leaderboard_rank_reached: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadLeaderboardRankReached"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_webhook_ping: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery id: the same on every attempt and replay. Deduplicate on it. */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed. Refuse ones far from your clock. */
                "webhook-timestamp": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret in use (two during a rotation overlap). Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayloadWebhookPing"];
            };
        };
        responses: {
            /** @description Acknowledged: the delivery is not sent again. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
