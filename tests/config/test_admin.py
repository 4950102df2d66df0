from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin

pytestmark = pytest.mark.django_db


def test_every_admin_page_opens(client: Any, make_user: Any, upload: Any) -> None:
    from analysis import services
    from tests.records.documents import illegal_document

    services.verify_match(match_id=upload(illegal_document(1)).pk)
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save()
    client.force_login(superuser)
    for model in admin.site._registry:
        meta = model._meta
        changelist = client.get(f"/admin/{meta.app_label}/{meta.model_name}/")
        assert changelist.status_code == 200, meta.label
        first = model.objects.first()
        if first is not None:
            change = client.get(f"/admin/{meta.app_label}/{meta.model_name}/{first.pk}/change/")
            assert change.status_code == 200, meta.label


def test_a_settlement_s_admin_page_shows_its_payment_lines(
    client: Any, make_user: Any, upload: Any
) -> None:
    from analysis import services
    from analysis.models import RoundSettlement
    from xuezhan.sim.simulate import simulate_match

    services.verify_match(match_id=upload(simulate_match(3, 1)).pk)
    settlement = RoundSettlement.objects.get()
    assert settlement.payments
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save()
    client.force_login(superuser)
    page = client.get(f"/admin/analysis/roundsettlement/{settlement.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert all(f"{p.ordinal}: {p}" in text for p in settlement.payments)
