from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('analysis', '0005_merge_facts_league'),
    ]

    operations = [
        migrations.AddField(
            model_name='verification',
            name='review',
            field=models.JSONField(blank=True, help_text="The decision review's summaries (xuezhan.review): `seats`, each seat over the match, and `rounds`, each round's four; null when the engine could not review.", null=True),
        ),
    ]
